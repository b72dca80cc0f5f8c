import { defineTool } from '@cairn/loop';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { byName, must, parentOf, startOtel } from '../test/otel-harness.js';

let otel: ReturnType<typeof startOtel>;
const ns = (time: [number, number]) => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
afterEach(() => otel.stop());

const weather = defineTool({
  name: 'get_weather',
  description: 'The weather in a city',
  category: 'read',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => `${city}: 12°C, cloudy`,
});
const time = defineTool({
  name: 'get_time',
  description: 'The time in a city',
  category: 'read',
  input: z.object({ city: z.string() }),
  execute: async () => {
    throw new Error('clock unavailable');
  },
});

function twoToolModel() {
  return new ScriptedModel({
    provider: 'openai',
    modelId: 'gpt-4o',
    turns: [
      {
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'call_2', name: 'get_time', arguments: { city: 'Oslo' } },
        ],
        usage: { inputTokens: 50, outputTokens: 20 },
      },
      { text: 'It is 12°C in Oslo.', usage: { inputTokens: 90, outputTokens: 9 } },
    ],
  });
}

function runtimeWith(model: ScriptedModel) {
  return createAgentRuntime({
    store: createMemoryConversationStore(),
    model,
    tools: [weather, time],
    settings: { compression: false },
    telemetry: otel.telemetry,
  });
}

describe('createOtelTelemetry', () => {
  it('traces a two-tool turn: invoke_agent → chat, execute_tool ×2, chat — attribute by attribute', async () => {
    otel = startOtel();
    const result = await runtimeWith(twoToolModel()).chat({
      userInput: 'Weather and time in Oslo?',
      agent: { id: 'agent-7', name: 'Forecaster' },
    });
    expect(result.success).toBe(true);
    const spans = otel.spans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      'chat gpt-4o',
      'chat gpt-4o',
      'execute_tool get_time',
      'execute_tool get_weather',
      'invoke_agent Forecaster',
    ]);
    const [agent] = byName(spans, 'invoke_agent Forecaster');
    expect(agent?.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(must(agent))).toBeUndefined();
    expect(agent?.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.agent.name': 'Forecaster',
      'gen_ai.agent.id': 'agent-7',
      'gen_ai.conversation.id': result.conversationId,
      'gen_ai.usage.input_tokens': 140,
      'gen_ai.usage.output_tokens': 29,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.response.model': 'gpt-4o',
    });
    expect(agent?.status.code).toBe(SpanStatusCode.UNSET);

    const [first, second] = byName(spans, 'chat gpt-4o').sort((a, b) =>
      Number(ns(a.startTime) - ns(b.startTime)),
    );
    for (const chat of [first, second]) {
      expect(chat?.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(must(chat))).toBe(agent?.spanContext().spanId);
      expect(chat?.spanContext().traceId).toBe(agent?.spanContext().traceId);
    }
    expect(first?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.conversation.id': result.conversationId,
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.response.id': 'scripted-0',
      'gen_ai.response.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 20,
    });
    expect(second?.attributes).toMatchObject({
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 90,
      'gen_ai.usage.output_tokens': 9,
    });
    // No content without recordContent.
    for (const span of spans) {
      expect(
        Object.keys(span.attributes).filter((key) => /messages|instructions|arguments|result/.test(key)),
      ).toEqual([]);
    }

    const [weatherSpan] = byName(spans, 'execute_tool get_weather');
    expect(weatherSpan?.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(must(weatherSpan))).toBe(agent?.spanContext().spanId);
    expect(weatherSpan?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
    });
    expect(weatherSpan?.status.code).toBe(SpanStatusCode.UNSET);
    const [timeSpan] = byName(spans, 'execute_tool get_time');
    expect(timeSpan?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_time',
      'gen_ai.tool.call.id': 'call_2',
      'gen_ai.tool.type': 'function',
      'error.type': 'TOOL_FAILED',
    });
    expect(timeSpan?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    // The tools ran between the two model calls.
    expect(ns(must(weatherSpan).startTime) >= ns(must(first).endTime)).toBe(true);
    expect(ns(must(second).startTime) >= ns(must(timeSpan).endTime)).toBe(true);
  });

  it('nests its own spans without a context manager (each scope hands its telemetry on)', async () => {
    otel = startOtel({ contextManager: false });
    const result = await runtimeWith(twoToolModel()).chat({ userInput: 'Weather and time in Oslo?' });
    expect(result.success).toBe(true);
    const spans = otel.spans();
    const agent = must(spans.find((span) => span.name.startsWith('invoke_agent')));
    const children = spans.filter((span) => span !== agent);
    expect(children.map((span) => span.name).sort()).toEqual([
      'chat gpt-4o',
      'chat gpt-4o',
      'execute_tool get_time',
      'execute_tool get_weather',
    ]);
    for (const span of children) {
      expect(parentOf(span), span.name).toBe(agent.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(agent.spanContext().traceId);
    }
  });

  it('records content in the conventions’ JSON shape only with recordContent', async () => {
    otel = startOtel({ recordContent: true });
    await runtimeWith(twoToolModel()).chat({ userInput: 'Weather and time in Oslo?' });
    const spans = otel.spans();
    const chats = byName(spans, 'chat gpt-4o');
    const last = chats.find(
      (span) => span.attributes['gen_ai.response.finish_reasons']?.toString() === 'stop',
    );
    expect(JSON.parse(String(last?.attributes['gen_ai.system_instructions']))[0]).toMatchObject({
      type: 'text',
    });
    const input = JSON.parse(String(last?.attributes['gen_ai.input.messages']));
    expect(input).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather and time in Oslo?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
          { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: { city: 'Oslo' } },
        ],
      },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: 'Oslo: 12°C, cloudy' }] },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool_call_response',
            id: 'call_2',
            response: expect.stringContaining('clock unavailable'),
          },
        ],
      },
    ]);
    expect(JSON.parse(String(last?.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'It is 12°C in Oslo.' }], finish_reason: 'stop' },
    ]);
    const [weatherSpan] = byName(spans, 'execute_tool get_weather');
    expect(weatherSpan?.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Oslo"}');
    expect(weatherSpan?.attributes['gen_ai.tool.call.result']).toBe('Oslo: 12°C, cloudy');
  });

  it('a failed turn: error.type and an error status on the model call and the agent invocation', async () => {
    otel = startOtel();
    const model = new ScriptedModel({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      turns: [{ fault: { status: 400, message: 'bad request' } }],
    });
    const result = await runtimeWith(model).chat({ userInput: 'Hi' });
    expect(result.success).toBe(false);
    const spans = otel.spans();
    const [chat] = byName(spans, 'chat claude-sonnet-4-5');
    const [agent] = byName(spans, 'invoke_agent');
    const code = result.error?.code ?? '';
    expect(code).toMatch(/^LLM_/);
    expect(chat?.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'error.type': code });
    expect(chat?.status.code).toBe(SpanStatusCode.ERROR);
    expect(agent?.attributes['error.type']).toBe(code);
    expect(agent?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(parentOf(must(chat))).toBe(agent?.spanContext().spanId);
  });

  it('an aborted turn: the model call and the invocation end with LLM_ABORTED', async () => {
    otel = startOtel();
    const controller = new AbortController();
    const model = new ScriptedModel({
      provider: 'gemini',
      modelId: 'gemini-2.5-flash',
      turns: [{ text: 'a long answer '.repeat(50), chunkSize: 4, chunkDelayMs: 5 }],
    });
    const result = await runtimeWith(model).chat({
      userInput: 'Tell me a story',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text_delta') controller.abort();
      },
    });
    expect(result.success).toBe(false);
    const spans = otel.spans();
    const [chat] = byName(spans, 'chat gemini-2.5-flash');
    expect(chat?.attributes).toMatchObject({
      'gen_ai.provider.name': 'gcp.gemini',
      'error.type': 'LLM_ABORTED',
    });
    const [agent] = byName(spans, 'invoke_agent');
    expect(agent?.attributes).toMatchObject({
      'error.type': 'LLM_ABORTED',
      'gen_ai.response.finish_reasons': ['aborted'],
    });
  });

  it('a span the caller started is the parent of invoke_agent', async () => {
    otel = startOtel();
    const runtime = runtimeWith(twoToolModel());
    await otel.tracer.startActiveSpan('handle job', async (span) => {
      await runtime.chat({ userInput: 'Weather?' });
      span.end();
    });
    const spans = otel.spans();
    const [job] = byName(spans, 'handle job');
    const [agent] = byName(spans, 'invoke_agent');
    expect(parentOf(must(agent))).toBe(job?.spanContext().spanId);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('records the GenAI metrics with the conventions’ names, units, attributes and buckets', async () => {
    otel = startOtel();
    await runtimeWith(twoToolModel()).chat({ userInput: 'Weather?' });
    const recorded = await otel.metrics();
    const tokens = recorded.find((metric) => metric.descriptor.name === 'gen_ai.client.token.usage');
    expect(tokens?.descriptor.unit).toBe('{token}');
    const points = (tokens?.dataPoints ?? []).map((point) => ({
      attributes: point.attributes,
      sum: (point.value as { sum: number }).sum,
      count: (point.value as { count: number }).count,
    }));
    const common = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.response.model': 'gpt-4o',
    };
    expect(points).toEqual(
      expect.arrayContaining([
        { attributes: { ...common, 'gen_ai.token.type': 'input' }, sum: 140, count: 2 },
        { attributes: { ...common, 'gen_ai.token.type': 'output' }, sum: 29, count: 2 },
      ]),
    );
    expect(
      (must(tokens?.dataPoints[0]).value as { buckets: { boundaries: number[] } }).buckets.boundaries.slice(
        0,
        4,
      ),
    ).toEqual([1, 4, 16, 64]);
    const duration = recorded.find((metric) => metric.descriptor.name === 'gen_ai.client.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const operations = (duration?.dataPoints ?? []).map((point) => [
      point.attributes['gen_ai.operation.name'],
      (point.value as { count: number }).count,
    ]);
    expect(operations).toEqual(
      expect.arrayContaining([
        ['chat', 2],
        ['invoke_agent', 1],
      ]),
    );
    expect(
      (must(duration?.dataPoints[0]).value as { buckets: { boundaries: number[] } }).buckets.boundaries.slice(
        0,
        3,
      ),
    ).toEqual([0.01, 0.02, 0.04]);
  });
});
