import { defineTool } from '@cairn/loop';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { otlpAttribute, startOtlpReceiver } from '../test/otlp-receiver.js';
import { createOtelTelemetry } from './index.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('exports a turn end to end over OTLP/HTTP to a loopback receiver', async () => {
  const receiver = await startOtlpReceiver();
  cleanups.push(() => receiver.close());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  cleanups.push(() => context.disable());
  const exporter = new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  cleanups.push(() => tracerProvider.shutdown());
  cleanups.push(() => trace.disable());

  const model = new ScriptedModel({
    provider: 'anthropic',
    modelId: 'claude-sonnet-4-5',
    turns: [
      {
        toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { q: 'otel' } }],
        usage: { inputTokens: 30, outputTokens: 7 },
      },
      { text: 'Found it.', usage: { inputTokens: 44, outputTokens: 3 } },
    ],
  });
  const runtime = createAgentRuntime({
    store: createMemoryConversationStore(),
    model,
    tools: [
      defineTool({
        name: 'lookup',
        description: 'Looks a word up',
        category: 'read',
        input: z.object({ q: z.string() }),
        execute: async () => 'a tracing standard',
      }),
    ],
    settings: { compression: false },
    telemetry: createOtelTelemetry({ tracerProvider }),
  });
  const result = await runtime.chat({ userInput: 'What is otel?', agent: { name: 'Librarian' } });
  expect(result.success).toBe(true);
  await tracerProvider.forceFlush();

  const names = receiver.spans.map((span) => span.name).sort();
  expect(names).toEqual([
    'chat claude-sonnet-4-5',
    'chat claude-sonnet-4-5',
    'execute_tool lookup',
    'invoke_agent Librarian',
  ]);
  const agent = receiver.spans.find((span) => span.name === 'invoke_agent Librarian');
  for (const span of receiver.spans) {
    expect(span.traceId).toBe(agent?.traceId);
    if (span !== agent) expect(span.parentSpanId).toBe(agent?.spanId);
  }
  expect(otlpAttribute(agent as never, 'gen_ai.usage.input_tokens')).toBe(74);
  const chat = receiver.spans.find((span) => span.name.startsWith('chat'));
  expect(otlpAttribute(chat as never, 'gen_ai.provider.name')).toBe('anthropic');
  expect(otlpAttribute(chat as never, 'gen_ai.response.finish_reasons')).toEqual(['tool_call']);
});
