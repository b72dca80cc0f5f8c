import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { createOtelTelemetry } from '@cairn/otel';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import {
  CLAUDE_TRANSCRIPT,
  installFakeAgent,
  readRuns,
  TRANSCRIPT_PROMPT,
  tempDir,
} from './support/agent-fake-cli.js';
import { inProcessAppParts } from './support/in-process-app-parts.js';
import { serveApp } from './support/serve-app.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

// With the SDK's default AsyncLocalStorage context manager, or none (`contextManager: null`).
function startTracing(contextManager = true) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  tracerProvider.register(contextManager ? {} : { contextManager: null });
  cleanups.push(() => {
    trace.disable();
    context.disable();
    propagation.disable();
    return tracerProvider.shutdown();
  });
  return { exporter, telemetry: createOtelTelemetry({ tracerProvider }) };
}

describe('--otel: requests traced', () => {
  it.each([
    ['with', true],
    ['without', false],
  ])(
    'continues an incoming traceparent: the request span is its child, the turn’s spans the request’s (%s a context manager)',
    async (_, contextManager) => {
      const { exporter, telemetry } = startTracing(contextManager);
      const store = createMemoryConversationStore();
      const model = new ScriptedModel({ provider: 'openai', modelId: 'gpt-4o', turns: [{ text: 'Hello.' }] });
      const served = await serveApp({
        store,
        runtime: createAgentRuntime({ store, model, settings: { compression: false }, telemetry }),
        events: createInProcessEventBus(),
        turnLock: createInProcessTurnLock(),
        telemetry,
      });
      cleanups.push(() => served.close());

      const response = await served.request('/v1/conversations/c1/messages', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
          tracestate: 'vendor=abc',
        },
        body: JSON.stringify({ content: 'Hi' }),
      });
      expect(response.status).toBe(200);
      await response.text();

      const spans = exporter.getFinishedSpans();
      const request = spans.find((span) => span.kind === SpanKind.SERVER);
      expect(request?.name).toBe('POST /v1/conversations/:id/messages');
      expect(request?.spanContext().traceId).toBe(TRACE_ID);
      expect(request?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
      expect(request?.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/v1/conversations/:id/messages',
        'http.response.status_code': 200,
      });
      const agent = spans.find((span) => span.name === 'invoke_agent');
      expect(agent?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
      const chat = spans.find((span) => span.name === 'chat gpt-4o');
      expect(chat?.parentSpanContext?.spanId).toBe(agent?.spanContext().spanId);
      expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([TRACE_ID]));
      expect(agent?.attributes['gen_ai.conversation.id']).toBe('c1');
    },
  );

  it('an agent session runs inside the request: invoke_agent is its child, and the CLI gets its TRACEPARENT', async () => {
    const { exporter, telemetry } = startTracing();
    const root = await realpath(await tempDir());
    await mkdir(join(root, 'proj'));
    const bin = await tempDir();
    const argvFile = join(bin, 'runs.jsonl');
    const claude = await installFakeAgent(bin, 'claude', { transcript: CLAUDE_TRANSCRIPT, argvFile });
    const served = await serveApp({
      ...inProcessAppParts(),
      agentSessions: { workspaceRoot: root, commands: { claude } },
      telemetry,
    });
    cleanups.push(() => served.close());
    const response = await served.post('/v1/agent-sessions', {
      agent: 'claude',
      prompt: TRANSCRIPT_PROMPT,
      cwd: 'proj',
    });
    expect(response.status).toBe(200);
    await response.text();

    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.kind === SpanKind.SERVER);
    const agent = spans.find((span) => span.name === 'invoke_agent Claude Code');
    expect(request?.name).toBe('POST /v1/agent-sessions');
    expect(agent?.kind).toBe(SpanKind.CLIENT);
    expect(agent?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
    const [run] = (await readRuns(argvFile)) as { traceparent?: string }[];
    expect(run?.traceparent).toBe(`00-${agent?.spanContext().traceId}-${agent?.spanContext().spanId}-01`);
  });
});
