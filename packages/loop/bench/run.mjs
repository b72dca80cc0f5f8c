// pnpm --filter @cairn/loop bench
// Loop overhead per turn: chatToolLoop against the Vercel AI SDK's generateText (ai 6.x, a step
// limit, its MockLanguageModelV3), both driving a zero-latency model that calls a no-op tool on
// every turn but the last, in loops of TURNS turns. The models do the same (next answer, no
// waiting) and the tools do nothing, so what is timed is each loop's own work per turn. Then
// 10,000 turns (1,000 loops on one tool host and one long-lived AbortSignal) with the heap sampled
// after forced GCs: it must stay flat. Prints a table and one JSON line.
import { interleaved, report } from '@cairn/bench';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { chatToolLoop, createToolHost, defineTool } from '../dist/index.js';

const TURNS = 10;
const LOOPS_PER_ROUND = 300;
const ROUNDS = 7;
const MEMORY_LOOPS = 1_000;
const HEAP_SAMPLES_AT = [0.1, 0.25, 0.5, 0.75, 1];
// Growth allowed from the 10% to the 100% heap sample (9,000 turns): 0.5 MB is ~58 bytes a turn.
// One abort listener left on the shared signal per turn grows it by ~0.9 MB (tried), a kept
// message or request by far more; runs without a leak stay within ±0.25 MB.
const HEAP_GROWTH_GOAL_MB = 0.5;
const RATIO_GOAL = 0.5;

const gc = globalThis.gc;
if (gc === undefined) throw new Error('run with node --expose-gc (the package script does)');

// The request of a loop's last turn holds the prompt and TURNS - 1 calls with their results.
const isLastTurn = (promptLength) => promptLength >= 2 * TURNS - 1;

// ---- Cairn: a ModelAdapter answering at once, and the no-op tool ----

let cairnCalls = 0;
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const zeroLatencyModel = {
  provider: 'bench',
  modelId: 'zero-latency',
  capabilities: { streaming: false, toolCalls: true, parallelToolCalls: true, reasoning: false },
  async generate(request) {
    if (isLastTurn(request.messages.length)) {
      return { message: { role: 'assistant', content: 'done' }, usage, finishReason: 'stop' };
    }
    const call = {
      id: `call_${cairnCalls++}`,
      type: 'function',
      function: { name: 'noop', arguments: '{}' },
    };
    return {
      message: { role: 'assistant', content: null, tool_calls: [call] },
      usage,
      finishReason: 'tool_calls',
    };
  },
  stream() {
    throw new Error('the bench compares generate with generateText');
  },
};
const noop = defineTool({
  name: 'noop',
  description: 'Does nothing',
  category: 'bench',
  input: z.object({}),
  execute: () => 'ok',
});
const host = createToolHost([noop]);

async function cairnLoop(signal) {
  const result = await chatToolLoop({
    model: zeroLatencyModel,
    tools: host,
    messages: [{ role: 'user', content: 'go' }],
    maxTurns: TURNS,
    ...(signal === undefined ? {} : { signal }),
  });
  if (!result.success || result.turns !== TURNS) throw new Error(`Cairn loop: ${result.error?.message}`);
}

// ---- AI SDK: its mock model answering the same way, and the same no-op tool ----

const aiUsage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
let aiCalls = 0;
const aiModel = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) =>
    isLastTurn(prompt.length)
      ? {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: aiUsage,
          warnings: [],
        }
      : {
          content: [{ type: 'tool-call', toolCallId: `call_${aiCalls++}`, toolName: 'noop', input: '{}' }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: aiUsage,
          warnings: [],
        },
});
const aiTools = {
  noop: tool({ description: 'Does nothing', inputSchema: z.object({}), execute: async () => 'ok' }),
};

async function aiSdkLoop() {
  // The mock records every call; cleared so the record does not grow across loops.
  aiModel.doGenerateCalls.length = 0;
  const result = await generateText({
    model: aiModel,
    tools: aiTools,
    stopWhen: stepCountIs(TURNS),
    prompt: 'go',
  });
  if (result.steps.length !== TURNS) throw new Error(`AI SDK loop: ${result.steps.length} steps`);
}

// ---- Time per turn, side by side ----

const loops = (run) => async () => {
  for (let index = 0; index < LOOPS_PER_ROUND; index++) await run();
};
// A warm-up, so both are compiled before timing.
await loops(cairnLoop)();
await loops(aiSdkLoop)();
const times = await interleaved(ROUNDS, {
  cairn: { fn: loops(() => cairnLoop()), iterations: 1 },
  aiSdk: { fn: loops(aiSdkLoop), iterations: 1 },
});
const perTurnUs = (ms) => (ms * 1000) / (LOOPS_PER_ROUND * TURNS);

// ---- Memory over 10,000 turns ----

const controller = new AbortController();
const sampleAt = new Map(
  HEAP_SAMPLES_AT.map((fraction) => [Math.ceil(MEMORY_LOOPS * fraction) - 1, fraction]),
);
const heapSamples = [];
for (let index = 0; index < MEMORY_LOOPS; index++) {
  await cairnLoop(controller.signal);
  const fraction = sampleAt.get(index);
  if (fraction === undefined) continue;
  gc();
  heapSamples.push({ at: fraction, heapUsedMB: process.memoryUsage().heapUsed / 1024 / 1024 });
}
const heapGrowth = heapSamples.at(-1).heapUsedMB - heapSamples[0].heapUsedMB;

const ok = report(
  '@cairn/loop: loop overhead per turn, chatToolLoop vs the AI SDK generateText (zero-latency model, no-op tool)',
  [
    {
      name: 'Cairn ÷ AI SDK time per turn',
      value: times.cairn / times.aiSdk,
      goal: RATIO_GOAL,
      detail: `${perTurnUs(times.cairn).toFixed(1)} µs vs ${perTurnUs(times.aiSdk).toFixed(1)} µs per turn (loops of ${TURNS} turns, median of ${ROUNDS} rounds of ${LOOPS_PER_ROUND} loops)`,
      peer: { name: 'AI SDK generateText', value: perTurnUs(times.aiSdk), unit: 'µs/turn' },
    },
    {
      name: `heap growth over ${MEMORY_LOOPS * TURNS} turns (after GC)`,
      value: heapGrowth,
      goal: HEAP_GROWTH_GOAL_MB,
      unit: 'MB',
      detail: `heapUsed ${heapSamples.map((sample) => `at ${sample.at * 100}%: ${sample.heapUsedMB.toFixed(1)} MB`).join(', ')} (one tool host, one AbortSignal throughout)`,
    },
  ],
  {
    turnsPerLoop: TURNS,
    cairnMicrosecondsPerTurn: perTurnUs(times.cairn),
    aiSdkMicrosecondsPerTurn: perTurnUs(times.aiSdk),
    heapSamples,
    aiSdkVersion: (await import('ai/package.json', { with: { type: 'json' } })).default.version,
  },
);
process.exitCode = ok ? 0 : 1;
