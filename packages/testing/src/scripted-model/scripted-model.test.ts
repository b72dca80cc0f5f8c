import { type AgentOutput, CairnError, type ModelRequest } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { MALFORMED_SSE_DATA } from '../script-turn.js';
import { ScriptedModel } from './scripted-model.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }] };
const fixedClock = () => new Date('2025-01-01T00:00:00.000Z');

async function collect(stream: AsyncIterable<AgentOutput>): Promise<AgentOutput[]> {
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('ScriptedModel', () => {
  it('plays text and parallel tool calls the same way through generate and stream', async () => {
    const turn = {
      reasoning: 'think first',
      text: 'Checking.',
      toolCalls: [
        { name: 'a', arguments: { x: 1 } },
        { id: 'given', name: 'b', arguments: { y: '😀' } },
      ],
      chunkSize: 3,
    };
    const model = new ScriptedModel({ turns: [turn, turn], provider: 'openai', now: fixedClock });
    const generated = await model.generate(request);
    const stream = model.stream(request);
    const events = await collect(stream);
    const streamed = await stream.result;
    expect(generated.message).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'call_0_0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
        { id: 'given', type: 'function', function: { name: 'b', arguments: '{"y":"😀"}' } },
      ],
      reasoning: [{ text: 'think first' }],
    });
    expect(streamed.message).toEqual({
      ...generated.message,
      tool_calls: generated.message.tool_calls?.map((call) =>
        call.id === 'call_0_0' ? { ...call, id: 'call_1_0' } : call,
      ),
    });
    expect(streamed).toMatchObject({
      finishReason: 'tool_calls',
      responseId: 'scripted-1',
      modelId: 'scripted-model',
    });
    expect(events.filter((event) => event.type === 'tool_input_delta').length).toBeGreaterThan(2);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: 'tool_calls',
      timestamp: '2025-01-01T00:00:00.000Z',
    });
    expect(model.requests).toEqual([request, request]);
  });

  it('raises faults as the CairnErrors a real adapter raises, from generate and as stream events', async () => {
    const model = new ScriptedModel({
      turns: [
        { fault: { status: 401 } },
        { fault: { status: 429, retryAfterSeconds: 2 } },
        { fault: { status: 500 } },
        { fault: { status: 400, contextOverflow: true } },
        { fault: { status: 429, retryAfterMs: 150 } },
      ],
    });
    const failure = (promise: Promise<unknown>) => promise.catch((error: unknown) => error as CairnError);
    expect(await failure(model.generate(request))).toMatchObject({ code: 'LLM_AUTH', retryable: false });
    expect(await failure(model.generate(request))).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryAfterMs: 2000,
    });
    expect(await failure(model.generate(request))).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      retryable: true,
    });
    expect(await failure(model.generate(request))).toMatchObject({ code: 'LLM_CONTEXT_OVERFLOW' });
    const stream = model.stream(request);
    const events = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['error', 'finish']);
    expect(events[0]).toMatchObject({ code: 'LLM_RATE_LIMITED', retryAfterMs: 150, fatal: true });
    await expect(stream.result).rejects.toBeInstanceOf(CairnError);
  });

  it('fails a cut or malformed stream after some output, with the raw text for malformed data', async () => {
    const model = new ScriptedModel({
      turns: [
        { text: 'abcdef', chunkSize: 1, cutAfterEvents: 3 },
        { text: 'abcdef', malformedAfterEvents: 2 },
      ],
    });
    const cut = await collect(model.stream(request));
    expect(cut.map((event) => event.type)).toEqual(['text_delta', 'text_delta', 'text', 'error', 'finish']);
    expect(cut.at(-2)).toMatchObject({ code: 'LLM_UNAVAILABLE' });
    expect(cut.at(-1)).toMatchObject({ reason: 'error' });
    const malformed = await collect(model.stream(request));
    expect(malformed.find((event) => event.type === 'error')).toMatchObject({
      code: 'LLM_BAD_RESPONSE',
      raw: MALFORMED_SSE_DATA,
    });
  });

  it('ends with finish aborted and no dangling tool call when aborted mid-stream', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ name: 'slow', arguments: { text: 'x'.repeat(40) } }], chunkSize: 2, chunkDelayMs: 5 },
        { text: 'never sent' },
      ],
    });
    const events: AgentOutput[] = [];
    for await (const event of model.stream({ ...request, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool_input_delta') controller.abort();
    }
    expect(events.some((event) => event.type === 'tool_use')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'aborted' });
    await expect(model.generate({ ...request, signal: controller.signal })).rejects.toMatchObject({
      code: 'LLM_ABORTED',
    });
  });

  it('waits delayMs, and reports a missing turn or a rawSse turn as INVALID_ARGUMENT', async () => {
    const model = new ScriptedModel({ turns: [{ text: 'late', delayMs: 40 }, { rawSse: 'data: {}\n\n' }] });
    const started = Date.now();
    expect((await model.generate(request)).message.content).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    await expect(model.generate(request)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const events = await collect(model.stream(request));
    expect(events.find((event) => event.type === 'error')).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('chooses turns with a function of the request', async () => {
    const model = new ScriptedModel({
      turns: (incoming, index) => ({ text: `${index}:${String(incoming.messages[0]?.content)}` }),
    });
    expect((await model.generate(request)).message.content).toBe('0:hi');
    expect((await model.generate(request)).message.content).toBe('1:hi');
  });
});
