// node bench/tokenizer-accuracy.mjs (after the package build); also part of bench/run.mjs.
// 1. The calibrated Anthropic and Gemini estimates against the input tokens reported on the five
//    captured turns of the shared scenario, replayed as live: count each request, then calibrate
//    with its report. Goal: every turn after the first within 10%. Also how far the estimated
//    growth between turns is from the reported growth, calibrated and not (no goal: the fixtures'
//    counts are synthetic).
// 2. `count` on a 10,000-message history after one new message (the history counted before), for
//    the exact OpenAI tokenizer and the estimate. Goal: under 1 ms.
import { fileURLToPath } from 'node:url';
import { interleaved, report, seededRandom } from '@cairn/bench';
import { createEstimatingTokenizer, createOpenAITokenizer } from '../dist/tokenizers/index.js';
import { readFixtureTurns, replayTurns } from '../src/tokenizers/fixture-accuracy.mjs';

const ACCURACY_GOAL = 0.1;
const COUNT_GOAL_MS = 1;
const HISTORY_LENGTH = 10_000;
const ROUNDS = 7;
const APPENDS_PER_ROUND = 200;

const percent = (value) => `${(value * 100).toFixed(1)}%`;
const worst = (values) => Math.max(...values);

function accuracyFigures(provider) {
  const results = replayTurns(
    readFixtureTurns(provider),
    createEstimatingTokenizer({ family: provider }),
    createEstimatingTokenizer({ family: provider }),
  ).slice(1);
  const perTurn = (key) => results.map((result) => `t${result.turn} ${percent(result[key])}`).join(', ');
  return [
    {
      name: `${provider}: worst relative error after calibration, turns 2–5`,
      value: worst(results.map((result) => result.relativeError)),
      goal: ACCURACY_GOAL,
      detail: `${perTurn('relativeError')} (reported ${results.map((result) => result.reported).join(', ')})`,
    },
    {
      name: `${provider}: worst error of the growth between turns, calibrated`,
      value: worst(results.map((result) => result.calibratedGrowthError)),
      detail: perTurn('calibratedGrowthError'),
    },
    {
      name: `${provider}: worst error of the growth between turns, uncalibrated`,
      value: worst(results.map((result) => result.uncalibratedGrowthError)),
      detail: `${perTurn('uncalibratedGrowthError')} (estimated ${results.map((result) => result.estimatedGrowth).join(', ')} vs reported ${results.map((result) => result.reportedGrowth).join(', ')})`,
    },
  ];
}

/** A seeded agent history: requests, tool calls with outputs, answers; every message a new object. */
function history(length) {
  const random = seededRandom();
  const words = 'the file function returns value error test build import export const await user'.split(' ');
  const text = (count) =>
    Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(' ');
  const messages = [];
  for (let index = 0; messages.length < length; index++) {
    const id = `call_${index}`;
    messages.push(
      { role: 'user', content: `Request ${index}: ${text(20)}` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id, type: 'function', function: { name: 'read_file', arguments: `{"path":"src/f${index}.ts"}` } },
        ],
      },
      { role: 'tool', tool_call_id: id, content: text(60) },
      { role: 'assistant', content: text(30) },
    );
  }
  return messages.slice(0, length);
}

async function countSpeedFigures() {
  const cases = {};
  const coldMs = {};
  for (const [name, tokenizer] of [
    ['openai', createOpenAITokenizer({ model: 'gpt-4o' })],
    ['estimate', createEstimatingTokenizer({ family: 'anthropic' })],
  ]) {
    const messages = history(HISTORY_LENGTH);
    const started = performance.now();
    tokenizer.count(messages);
    coldMs[name] = performance.now() - started;
    cases[name] = {
      fn: (index) => {
        messages.push({ role: 'user', content: `One more request (${name} ${index}).` });
        tokenizer.count(messages);
      },
      iterations: APPENDS_PER_ROUND,
    };
  }
  const times = await interleaved(ROUNDS, cases);
  const figure = (name, label) => ({
    name: `${label}: count of a ${HISTORY_LENGTH.toLocaleString('en')}-message history after one new message`,
    value: times[name],
    goal: COUNT_GOAL_MS,
    unit: 'ms',
    detail: `${((times[name] * 1000) / HISTORY_LENGTH).toFixed(4)} µs per history message; the first count of all ${HISTORY_LENGTH} took ${coldMs[name].toFixed(0)} ms`,
  });
  return [figure('openai', 'OpenAI o200k_base (exact)'), figure('estimate', 'estimate:anthropic')];
}

/** The tokenizer figures: calibrated accuracy per provider and the cost of an in-loop count. */
export async function tokenizerAccuracyFigures() {
  return [...accuracyFigures('anthropic'), ...accuracyFigures('gemini'), ...(await countSpeedFigures())];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ok = report('compression: tokenizers', await tokenizerAccuracyFigures());
  process.exitCode = ok ? 0 : 1;
}
