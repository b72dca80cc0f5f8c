import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentExecutor } from '@cairn/agent-executor';
import { chatToolLoop } from '@cairn/loop';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { createMemoryConversationStore } from '@cairn/storage';
import { startMockProviderServer } from '@cairn/testing';
import { context, propagation, SpanKind } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { byName, must, parentOf, startOtel } from '../test/otel-harness.js';

const FAKE_CLI = fileURLToPath(new URL('../test/print-trace-env.mjs', import.meta.url));

let otel: ReturnType<typeof startOtel>;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await otel.stop();
});

const traceparentOf = (span: { spanContext(): { traceId: string; spanId: string } }) =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

describe('trace context propagation', () => {
  it('the provider HTTP request made inside chat carries the chat span as its traceparent', async () => {
    otel = startOtel();
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    // What an HTTP client instrumentation (undici's) does: inject the active context into each request.
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      propagation.inject(context.active(), headers, {
        set: (carrier, key, value) => carrier.set(key, value),
      });
      return realFetch(input, { ...init, headers });
    };
    cleanups.push(() => {
      globalThis.fetch = realFetch;
    });
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'Hello.' }, { text: 'Again.' }],
    });
    cleanups.push(() => server.close());
    const model = createOpenAIAdapter({ model: 'gpt-4.1-mini', baseURL: server.baseURL, apiKey: 'sk-test' });
    for (const stream of [false, true]) {
      const result = await chatToolLoop({
        model,
        stream,
        messages: [{ role: 'user', content: 'Hi' }],
        telemetry: otel.telemetry,
      });
      expect(result.success).toBe(true);
    }
    const chats = byName(otel.spans(), 'chat gpt-4.1-mini');
    expect(chats).toHaveLength(2);
    expect(server.requests.map((request) => request.headers.traceparent)).toEqual(chats.map(traceparentOf));
    expect(chats[0]?.attributes['gen_ai.provider.name']).toBe('openai');
  });

  it.each([
    ['with', true],
    ['without', false],
  ])(
    'the agent executor runs the CLI inside invoke_agent and hands it TRACEPARENT (%s a context manager)',
    async (_, contextManager) => {
      otel = startOtel({ contextManager });
      const dir = await mkdtemp(join(tmpdir(), 'cairn-otel-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const envFile = join(dir, 'env.json');
      const executor = createAgentExecutor({
        store: createMemoryConversationStore(),
        agent: 'claude-code',
        command: process.execPath,
        commandArgs: [FAKE_CLI],
        cwd: dir,
        env: { TRACE_ENV_FILE: envFile },
        messageFields: { agentId: 'coder' },
        telemetry: otel.telemetry,
      });
      const result = await otel.tracer.startActiveSpan('nightly job', async (job) => {
        try {
          return await executor.run({ prompt: 'Say done', conversationId: 'c-agent' });
        } finally {
          job.end();
        }
      });
      const job = must(byName(otel.spans(), 'nightly job')[0]);
      expect(result.success).toBe(true);
      const spans = otel.spans();
      const agent = must(byName(spans, 'invoke_agent Claude Code')[0]);
      expect(agent.kind).toBe(SpanKind.CLIENT);
      // The caller's span is the parent only through a context manager; the CLI's TRACEPARENT is the
      // run's own span either way.
      expect(parentOf(agent)).toBe(contextManager ? job.spanContext().spanId : undefined);
      expect(agent.attributes).toEqual({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'Claude Code',
        'gen_ai.agent.id': 'coder',
        'gen_ai.conversation.id': 'c-agent',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 3,
      });
      const env = JSON.parse(await readFile(envFile, 'utf8'));
      expect(env).toEqual({ TRACEPARENT: traceparentOf(agent), TRACESTATE: null });
    },
  );
});
