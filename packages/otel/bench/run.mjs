// pnpm --filter @cairn/otel bench
// The tracing overhead of a loop turn: chatToolLoop with a model that answers at once (the
// streaming ScriptedModel of @cairn/testing, so a turn goes through the same stream machinery as a
// real adapter's; the event loop turns after each, as after a real call's I/O), with tracing on —
// the real SDK (a BatchSpanProcessor to an exporter that drops the spans) and the GenAI metrics (a
// MeterProvider with a reader), without and with the AsyncLocalStorage context manager — against
// off (no telemetry, no context manager), interleaved in the same run, medians. The issue's goal,
// on ÷ off ≤ 1.2, is checked on turns shaped like real ones: a 150-token answer streamed a token at a time
// (as the providers stream), and a tool turn (streamed arguments, the result, that answer). The
// same turns with a one-piece answer are shown too: there the loop does almost nothing, so the
// spans' fixed cost is most of what is measured. Prints a table and one JSON line.
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

const usage = { inputTokens: 120, outputTokens: 150 };
// About 150 tokens, streamed 4 characters (about a token) per chunk; or the short answer in one piece.
const STREAMED = {
  text: 'Oslo is cloudy today: 12°C, a light wind from the west, rain after six in the evening. '.repeat(7),
  chunkSize: 4,
};
const ONE_PIECE = { text: 'The answer is 42.', chunkSize: 64 };
const textModel = (answer) =>
  new ScriptedModel({ provider: 'openai', modelId: 'gpt-4.1-mini', turns: () => ({ ...answer, usage }) });
const toolModel = (answer) =>
  new ScriptedModel({
    provider: 'openai',
    modelId: 'gpt-4.1-mini',
    turns: (request) =>
      request.messages.at(-1)?.role === 'tool'
        ? { ...answer, usage }
        : {
            toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo', unit: 'celsius' } }],
            chunkSize: answer.chunkSize,
            usage,
          },
  });
const models = {
  text: textModel(STREAMED),
  tool: toolModel(STREAMED),
  shortText: textModel(ONE_PIECE),
  shortTool: toolModel(ONE_PIECE),
};
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
// Tracing without a context manager: Cairn's spans still nest (each scope hands its telemetry on);
// only the context manager's cost of carrying the context through every promise is left out.
const withoutContextManager = (model) => () => turn(model, true);
const off = (model) => () => turn(model, false);

// Warm-up: JIT, the SDK's lazy paths.
for (const model of Object.values(models)) {
  for (let index = 0; index < ITERATIONS; index++) await on(model)(index);
}
const cases = {};
for (const [name, model] of Object.entries(models)) {
  cases[`${name}Off`] = { fn: off(model), iterations: ITERATIONS };
  cases[`${name}On`] = { fn: on(model), iterations: ITERATIONS };
  cases[`${name}WithoutContextManager`] = { fn: withoutContextManager(model), iterations: ITERATIONS };
}
const times = await interleaved(ROUNDS, cases);
await tracerProvider.forceFlush();
await meterProvider.forceFlush();
if (exportedSpans === 0) throw new Error('no span was exported: tracing was not on');

const us = (ms) => ms * 1000;
const SHAPES = {
  text: 'text turn, 150-token answer streamed (one chat span)',
  tool: 'tool turn, streamed (two chat spans, one execute_tool)',
  shortText: 'text turn, one-piece answer',
  shortTool: 'tool turn, one-piece answer',
};
// The goal is checked on Cairn's tracing itself: spans and metrics, nested by Cairn explicitly, no
// context manager. A context manager is the application's choice (it lets foreign spans, e.g. an
// HTTP client's, nest under Cairn's); AsyncLocalStorage's is shown beside it — on Node 20 and 22 its
// promise hooks tax every promise of the process, whoever traces.
const rows = Object.entries(SHAPES).flatMap(([name, label]) => {
  const off = times[`${name}Off`];
  const goal = name === 'text' || name === 'tool' ? { goal: 1.2 } : {};
  return [
    {
      name: `${label}: tracing on ÷ off`,
      value: times[`${name}WithoutContextManager`] / off,
      ...goal,
      detail: `${us(times[`${name}WithoutContextManager`]).toFixed(0)} µs ÷ ${us(off).toFixed(0)} µs: spans and metrics, no context manager`,
      peer: { name: 'tracing off', value: us(off), unit: 'µs' },
    },
    {
      name: `${label}: tracing on with the AsyncLocalStorage context manager ÷ off`,
      value: times[`${name}On`] / off,
      detail: `${us(times[`${name}On`]).toFixed(0)} µs ÷ ${us(off).toFixed(0)} µs`,
      peer: { name: 'tracing off', value: us(off), unit: 'µs' },
    },
  ];
});
const ok = report('otel: loop turn with tracing on ÷ off', rows, {
  iterations: ITERATIONS,
  rounds: ROUNDS,
  exportedSpans,
});
await tracerProvider.shutdown();
await meterProvider.shutdown();
process.exitCode = ok ? 0 : 1;
