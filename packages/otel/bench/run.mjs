// pnpm --filter @cairn/otel bench
// The tracing overhead of a loop turn: chatToolLoop with a model that answers at once (the
// streaming ScriptedModel of @cairn/testing, so a turn goes through the same stream machinery as a
// real adapter's; the event loop turns after each, as after a real call's I/O), with tracing on —
// the real SDK (a BatchSpanProcessor to an exporter that drops the spans) and the GenAI metrics (a
// MeterProvider with a periodic reader), without and with the AsyncLocalStorage context manager —
// against off (no telemetry, no context manager). The goal, on ÷ off ≤ 1.2, is checked on
// turns shaped like real ones: a 150-token answer streamed a token at a time (as the providers
// stream), and a tool turn (streamed arguments, the result, that answer). The same turns with a
// one-piece answer are shown too: there the loop does almost nothing, so the spans' fixed cost is
// most of what is measured.
// Measured side by side at a fine grain (pairedCpu of @cairn/bench): blocks of 10 turns off and 10
// on (of one-piece turns 30–40), alternating, in the process's CPU time, a pair the OS preempted
// measured again; the figure is the ratio of the two sides' totals over 800 pairs (300 for the
// figures only shown). Everything tracing does falls in the "on" blocks: the batch processor
// exports synchronously when 512 spans are queued, and the GC collects where the allocation
// triggers it; only the metric reader's collection (~0.5 ms once a second) lands wherever its
// timer fires. No forced GC between cases: it made V8 deoptimize ("weak objects") and recompile
// the loop's and the SDK's code every round, more in the traced cases than in the untraced ones.
// Prints a table and one JSON line.
import { pairedCpu, report } from '@cairn/bench';
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

// Pairs of blocks (off, on) for the goal's turns and for the others.
const PAIRS = 800;
const SHOWN_PAIRS = 300;

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
// Turns per block: a block of a few milliseconds, long beside a GC's scavenge (~1 ms).
const CALLS_PER_BLOCK = { text: 10, tool: 10, shortText: 40, shortTool: 30 };
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
  // A real model call is I/O: the event loop turns between turns (the metric reader's timer runs
  // then). Both cases yield the same.
  await new Promise(setImmediate);
}

// Tracing on for one block of turns: the context manager enabled for it only, so "off" pays nothing.
const on = (model, calls) => async (index) => {
  if (index === 0) context.setGlobalContextManager(contextManager.enable());
  await turn(model, true);
  if (index === calls - 1) context.disable();
};
// Tracing without a context manager: Cairn's spans still nest (each scope hands its telemetry on);
// only the context manager's cost of carrying the context through every promise is left out.
const withoutContextManager = (model) => () => turn(model, true);
const off = (model) => () => turn(model, false);

const compare = (name, traced, pairs) => {
  const model = models[name];
  const callsPerBlock = CALLS_PER_BLOCK[name];
  return pairedCpu({ baseline: off(model), candidate: traced(model, callsPerBlock), callsPerBlock, pairs });
};
// Warm-up: every case, in the pattern it is measured in, until the JIT has seen all of them.
for (const name of Object.keys(models)) {
  await compare(name, withoutContextManager, 100);
  await compare(name, on, 50);
}
const results = {};
for (const name of Object.keys(models)) {
  const pairs = name === 'text' || name === 'tool' ? PAIRS : SHOWN_PAIRS;
  results[`${name}WithoutContextManager`] = await compare(name, withoutContextManager, pairs);
  results[`${name}On`] = await compare(name, on, SHOWN_PAIRS);
}
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
const figure = (label, result, note) => {
  const [low, high] = result.groupQuartiles;
  return {
    name: label,
    value: result.ratio,
    detail:
      `${us(result.candidate).toFixed(0)} µs ÷ ${us(result.baseline).toFixed(0)} µs CPU${note}; ` +
      `${result.pairs} pairs (${result.preemptedPairs} preempted, measured again), ` +
      `groups of 10 pairs ${low.toFixed(2)}–${high.toFixed(2)}`,
    peer: { name: 'tracing off', value: us(result.baseline), unit: 'µs' },
  };
};
const rows = Object.entries(SHAPES).flatMap(([name, label]) => [
  {
    ...figure(
      `${label}: tracing on ÷ off`,
      results[`${name}WithoutContextManager`],
      ': spans and metrics, no context manager',
    ),
    ...(name === 'text' || name === 'tool' ? { goal: 1.2 } : {}),
  },
  figure(`${label}: tracing on with the AsyncLocalStorage context manager ÷ off`, results[`${name}On`], ''),
]);
const ok = report('otel: loop turn with tracing on ÷ off', rows, {
  callsPerBlock: CALLS_PER_BLOCK,
  pairs: { goal: PAIRS, shown: SHOWN_PAIRS },
  exportedSpans,
});
await tracerProvider.shutdown();
await meterProvider.shutdown();
process.exitCode = ok ? 0 : 1;
