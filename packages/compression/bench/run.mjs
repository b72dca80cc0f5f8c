// pnpm --filter @cairn/compression bench
// 1. Compressing a 2,000-message, ~1M-token history (tool outputs, calls, answers) to the target
//    of a 128k budget, without a summariser: with the history's counts cached (as in a running
//    conversation) and after a restart (first count included), side by side with LangChain's trimMessages on the same history and budget (the same
//    token counter), and whether each result is a valid tool-call protocol.
// 2. getUsage on a 10,000-message history after one new message (the history counted before).
// 3. Compressing a history with a screenshot in every request (~320k tokens of images, stored as
//    blobs) to the target of a 128k budget for Claude: old images' bytes give way first.
// 4. Tokenizer accuracy against the shared provider fixtures (bench/tokenizer-accuracy.mjs).
// Prints a table and one JSON line.

import { report, seededRandom } from '@cairn/bench';
import { toolProtocolIssues } from '@cairn/core';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from '@langchain/core/messages';
import { CompressionPipeline, createEstimatingTokenizer, createTokenizer } from '../dist/index.js';
import { tokenizerAccuracyFigures } from './tokenizer-accuracy.mjs';

const BUDGET = 128_000;
const COMPRESS_GOAL_MS = 50;
const USAGE_GOAL_MS = 1;
const ROUNDS = 7;

const random = seededRandom();
const int = (min, max) => min + Math.floor(random() * (max - min + 1));
const VOCABULARY =
  'the file function returns value error test build import export const await user order cache'.split(' ');
const text = (words) =>
  Array.from({ length: words }, () => VOCABULARY[int(0, VOCABULARY.length - 1)]).join(' ');

/** A coding-agent history of about `messages` messages: requests, tool rounds with big outputs, answers. */
function history(messages, outputWords) {
  const list = [{ role: 'system', content: `You are a coding assistant. ${text(200)}` }];
  for (let turn = 0; list.length < messages; turn++) {
    list.push({ role: 'user', content: `Request ${turn}: ${text(int(10, 60))}` });
    for (let round = int(1, 4); round > 0 && list.length < messages - 1; round--) {
      const id = `call_${turn}_${round}`;
      list.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id,
            type: 'function',
            function: { name: 'read_file', arguments: `{"path":"src/${text(1)}.ts"}` },
          },
        ],
      });
      list.push({ role: 'tool', tool_call_id: id, content: text(int(outputWords / 2, outputWords * 1.5)) });
    }
    list.push({ role: 'assistant', content: text(int(20, 150)) });
  }
  return list;
}

const big = history(2_000, 1_400);
const fresh = () => big.map((message) => structuredClone(message));
const tokenizer = createEstimatingTokenizer({ family: 'generic' });
const historyTokens = tokenizer.count(fresh());
const historyChars = big.reduce((sum, message) => sum + (message.content ?? '').length, 0);

// ---- 1. Compress to target, and LangChain's trimMessages on the same history ----

let result;
let copies = [];
// As in a running conversation: the history's counts are cached (each turn's usage check counted
// the messages as they came), so compressing is the work timed.
let counted = [];
const compress = async () => {
  const { pipeline, messages } = counted.pop();
  result = await pipeline.compressIfNeeded(messages);
};
// After a restart: nothing counted yet, the first count of the whole history included.
const compressCold = async () => {
  const pipeline = new CompressionPipeline({
    tokenBudget: BUDGET,
    tokenizer: createEstimatingTokenizer({ family: 'generic' }),
  });
  await pipeline.compressIfNeeded(copies.pop());
};
const toLangChain = (message) => {
  switch (message.role) {
    case 'system':
      return new SystemMessage(message.content);
    case 'user':
      return new HumanMessage(message.content);
    case 'tool':
      return new ToolMessage({ content: message.content, tool_call_id: message.tool_call_id });
    default:
      return new AIMessage({
        content: message.content ?? '',
        tool_calls: (message.tool_calls ?? []).map((call) => ({
          id: call.id,
          name: call.function.name,
          args: JSON.parse(call.function.arguments),
        })),
      });
  }
};
const fromLangChain = (message) => {
  const type = message._getType();
  if (type === 'tool')
    return { role: 'tool', tool_call_id: message.tool_call_id, content: String(message.content) };
  if (type === 'ai') {
    const calls = message.tool_calls ?? [];
    return calls.length === 0
      ? { role: 'assistant', content: String(message.content) }
      : {
          role: 'assistant',
          content: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        };
  }
  return { role: type === 'system' ? 'system' : 'user', content: String(message.content) };
};
// LangChain counts with the same estimate, each message once (cached per message object, as
// Cairn's tokenizers do): trimMessages calls its counter on many slices of the history.
const langChainCounts = new WeakMap();
const langChainCounter = (messages) => {
  let total = 0;
  for (const message of messages) {
    let count = langChainCounts.get(message);
    if (count === undefined) {
      count = tokenizer.count([fromLangChain(message)]) - tokenizer.count([]);
      langChainCounts.set(message, count);
    }
    total += count;
  }
  return total;
};
let trimmed;
let langChainCopies = [];
const trim = async () => {
  trimmed = await trimMessages(langChainCopies.pop(), {
    maxTokens: BUDGET * 0.5,
    tokenCounter: langChainCounter,
    strategy: 'last',
    includeSystem: true,
    startOn: 'human',
  });
};
const prepare = () => {
  copies = Array.from({ length: 2 }, fresh);
  counted = Array.from({ length: 2 }, () => {
    const pipeline = new CompressionPipeline({
      tokenBudget: BUDGET,
      tokenizer: createEstimatingTokenizer({ family: 'generic' }),
    });
    const messages = fresh();
    pipeline.getUsage(messages);
    return { pipeline, messages };
  });
  langChainCopies = Array.from({ length: 2 }, () => fresh().map(toLangChain));
};
const timed = async (fn) => {
  prepare();
  await fn();
};
await timed(compress);
await timed(compressCold);
await timed(trim);
const compressMs = [];
const coldMs = [];
const trimMs = [];
for (let round = 0; round < ROUNDS; round++) {
  prepare();
  const cases = [
    [compress, compressMs],
    [compressCold, coldMs],
    [trim, trimMs],
  ];
  for (const [fn, samples] of round % 2 === 0 ? cases : cases.reverse()) {
    globalThis.gc?.();
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cairnValid = toolProtocolIssues(result.messages).length === 0;
const langChainValid = toolProtocolIssues(trimmed.map(fromLangChain)).length === 0;

// ---- 2. getUsage after one new message ----

const long = history(10_000, 60);
const usagePipeline = new CompressionPipeline({
  tokenBudget: 10_000_000,
  tokenizer: createEstimatingTokenizer({ family: 'generic' }),
});
usagePipeline.getUsage(long);
const usageMs = [];
for (let round = 0; round < 50; round++) {
  long.push({ role: 'user', content: text(30) });
  const started = performance.now();
  usagePipeline.getUsage(long);
  usageMs.push(performance.now() - started);
}

// ---- 3. A history of screenshots ----

/** `turns` requests, each with a 1568 × 980 screenshot stored as a blob (1,600 tokens each to Claude). */
function screenshotHistory(turns) {
  const list = [{ role: 'system', content: `You review UI screenshots. ${text(200)}` }];
  for (let turn = 0; turn < turns; turn++) {
    const sha256 = turn.toString(16).padStart(64, '0');
    list.push(
      {
        role: 'user',
        content: [
          { type: 'text', text: `Screen ${turn}: ${text(int(10, 40))}` },
          {
            type: 'image',
            mediaType: 'image/png',
            source: { type: 'blob', sha256, size: 300_000 },
            width: 1568,
            height: 980,
            fileName: `screen-${turn}.png`,
          },
        ],
      },
      { role: 'assistant', content: text(int(20, 120)) },
    );
  }
  return list;
}
const screens = screenshotHistory(200);
const imagesIn = (messages) =>
  messages.filter(
    (message) => Array.isArray(message.content) && message.content.some((part) => part.type === 'image'),
  ).length;
let screensResult;
const screensMs = [];
for (let round = 0; round < ROUNDS + 1; round++) {
  const pipeline = new CompressionPipeline({
    tokenBudget: BUDGET,
    tokenizer: createTokenizer('claude-sonnet-4-5'),
  });
  const messages = screens.map((message) => structuredClone(message));
  pipeline.getUsage(messages);
  globalThis.gc?.();
  const started = performance.now();
  screensResult = await pipeline.compressIfNeeded(messages);
  if (round > 0) screensMs.push(performance.now() - started);
}
const screensValid = toolProtocolIssues(screensResult.messages).length === 0;

const ok = report(
  '@cairn/compression: compression, usage and token counting',
  [
    {
      name: `compress ${big.length} messages (~${Math.round(historyTokens / 1000)}k tokens) to target`,
      value: median(compressMs),
      goal: COMPRESS_GOAL_MS,
      unit: 'ms',
      detail: `${result.before.tokens} → ${result.after.tokens} tokens (budget ${BUDGET}, target 50%), steps ${result.steps.map((step) => `${step.step}:${step.messages}`).join(' ')}; protocol-valid: ${cairnValid}`,
      peer: { name: 'LangChain trimMessages', value: median(trimMs), unit: 'ms' },
    },
    {
      name: 'the same after a restart (first count of the history included)',
      value: median(coldMs),
      unit: 'ms',
      detail: `the estimate reads every character of ${(historyChars / 1e6).toFixed(1)} M once; later checks reuse the counts`,
      peer: { name: 'LangChain trimMessages', value: median(trimMs), unit: 'ms' },
    },
    {
      name: 'LangChain trimMessages, same history and budget',
      value: median(trimMs),
      unit: 'ms',
      detail: `keeps ${trimmed.length} messages (last, system kept, starting on a user message); protocol-valid: ${langChainValid}; it counts each message once too: Cairn after a restart ÷ LangChain ${(median(coldMs) / median(trimMs)).toFixed(2)}`,
    },
    {
      name: `getUsage on ${long.length - 50}+ messages after one new message`,
      value: median(usageMs),
      goal: USAGE_GOAL_MS,
      unit: 'ms',
      detail: `median of 50 (worst ${Math.max(...usageMs).toFixed(3)} ms)`,
    },
    {
      name: `compress ${screens.length} messages with ${imagesIn(screens)} screenshots (~${Math.round(screensResult.before.tokens / 1000)}k tokens) to target`,
      value: median(screensMs),
      goal: COMPRESS_GOAL_MS,
      unit: 'ms',
      detail: `${screensResult.before.tokens} → ${screensResult.after.tokens} tokens (Claude estimate, budget ${BUDGET}, target 50%), steps ${screensResult.steps.map((step) => `${step.step}:${step.messages}`).join(' ')}; ${imagesIn(screensResult.messages)} newest screenshots kept, every message kept; protocol-valid: ${screensValid}`,
    },
    ...(await tokenizerAccuracyFigures()),
  ],
  {
    cairnProtocolValid: cairnValid,
    langChainProtocolValid: langChainValid,
    historyMessages: big.length,
    historyTokens,
  },
);
if (!cairnValid || !screensValid) throw new Error('the compressed history breaks the tool-call protocol');
process.exitCode = ok ? 0 : 1;
