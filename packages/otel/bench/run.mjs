// pnpm --filter @cairn/otel bench
// The tracing overhead of a loop turn: chatToolLoop with a model that answers at once (the
// streaming ScriptedModel of @cairn/testing, so a turn goes through the same stream machinery as a
// real adapter's; the event loop turns after each, as after a real call's I/O), a text turn and a tool turn (a call, its result, the answer), with tracing on —
// the real SDK (a BatchSpanProcessor to an exporter that drops the spans, the AsyncLocalStorage
// context manager) and the GenAI metrics (a MeterProvider with a reader) — against off (no
// telemetry, no context manager), interleaved in the same run, medians. The goal: on ÷ off
// ≤ 1.2. Prints a table and one JSON line.
import { interleaved, report } from '@cairn/bench';
import { chatToolLoop, createToolHost, defineTool } from '@cairn/loop';
import { ScriptedModel } from '@cairn/testing';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { createOtelTelemetry } from '../dist/index.js';

const ITERATIONS = 300;
const ROUNDS = 11;

let exportedSpans = 0;
const dropSpans = {
  export(spans, done) {
    exportedSpans += spans.length;
    done({ code: 0 });
  },
  shutdown: async () => {},
};
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new BatchSpanProcessor(dropSpans)],
});
const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
  exportIntervalMillis: 1_000,
});
const meterProvider = new MeterProvider({ readers: [reader] });
const telemetry = createOtelTelemetry({ tracerProvider, meterProvider });
const contextManager = new AsyncLocalStorageContextManager();

const usage = { inputTokens: 120, outputTokens: 30 };
const textModel = new ScriptedModel({
  provider: 'openai',
  modelId: 'gpt-4.1-mini',
  turns: () => ({ text: 'The answer is 42.', usage }),
});
const toolModel = new ScriptedModel({
  provider: 'openai',
  modelId: 'gpt-4.1-mini',
  turns: (request) =>
    request.messages.at(-1)?.role === 'tool'
      ? { text: 'It is 12°C in Oslo.', usage }
      : { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }], usage },
});
const tools = createToolHost([
  defineTool({
    name: 'get_weather',
    description: 'The weather in a city',
    category: 'read',
    input: z.object({ city: z.string() }),
    execute: async ({ city }) => `${city}: 12°C, cloudy`,
  }),
]);

async function turn(model, traced) {
  const result = await chatToolLoop({
    model,
    tools,
    messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    ...(traced ? { telemetry } : {}),
  });
  if (!result.success) throw result.error;
  // A real model call is I/O: the event loop turns between turns, and the batch processor's timer
  // exports. Without it the spans would only pile up (and be dropped) — both cases yield the same.
  await new Promise(setImmediate);
}

// Tracing on for one batch of calls: the context manager enabled for it only, so "off" pays nothing.
const on = (model) => async (index) => {
  if (index === 0) context.setGlobalContextManager(contextManager.enable());
  await turn(model, true);
  if (index === ITERATIONS - 1) context.disable();
};
// The spans and metrics recorded without a context manager: what recording costs by itself, apart
// from carrying the context through every promise of the turn (AsyncLocalStorage's promise hooks).
const recordOnly = (model) => () => turn(model, true);
const off = (model) => () => turn(model, false);

// Warm-up: JIT, the SDK's lazy paths.
for (let index = 0; index < ITERATIONS; index++) {
  await on(textModel)(index);
  await on(toolModel)(index);
}
const times = await interleaved(ROUNDS, {
  textOff: { fn: off(textModel), iterations: ITERATIONS },
  textOn: { fn: on(textModel), iterations: ITERATIONS },
  toolOff: { fn: off(toolModel), iterations: ITERATIONS },
  toolOn: { fn: on(toolModel), iterations: ITERATIONS },
  textRecordOnly: { fn: recordOnly(textModel), iterations: ITERATIONS },
  toolRecordOnly: { fn: recordOnly(toolModel), iterations: ITERATIONS },
});
await tracerProvider.forceFlush();
await meterProvider.forceFlush();
if (exportedSpans === 0) throw new Error('no span was exported: tracing was not on');

const us = (ms) => ms * 1000;
const ok = report(
  'otel: loop turn with tracing on ÷ off',
  [
    {
      name: 'text turn, tracing on ÷ off',
      value: times.textOn / times.textOff,
      goal: 1.2,
      detail: `${us(times.textOn).toFixed(0)} µs ÷ ${us(times.textOff).toFixed(0)} µs (one chat span)`,
      peer: { name: 'tracing off', value: us(times.textOff), unit: 'µs' },
    },
    {
      name: 'tool turn, tracing on ÷ off',
      value: times.toolOn / times.toolOff,
      goal: 1.2,
      detail: `${us(times.toolOn).toFixed(0)} µs ÷ ${us(times.toolOff).toFixed(0)} µs (two chat spans, one execute_tool)`,
      peer: { name: 'tracing off', value: us(times.toolOff), unit: 'µs' },
    },
    {
      name: 'text turn, recording only (no context manager) ÷ off',
      value: times.textRecordOnly / times.textOff,
      detail: `${us(times.textRecordOnly).toFixed(0)} µs: the SDK's spans and metrics without context propagation`,
      peer: { name: 'tracing off', value: us(times.textOff), unit: 'µs' },
    },
    {
      name: 'tool turn, recording only (no context manager) ÷ off',
      value: times.toolRecordOnly / times.toolOff,
      detail: `${us(times.toolRecordOnly).toFixed(0)} µs`,
      peer: { name: 'tracing off', value: us(times.toolOff), unit: 'µs' },
    },
  ],
  { iterations: ITERATIONS, rounds: ROUNDS, exportedSpans },
);
await tracerProvider.shutdown();
await meterProvider.shutdown();
process.exitCode = ok ? 0 : 1;
