// pnpm --filter @cairn/provider-utils bench
// SSE + JSON parsing of a 50 MB synthetic provider stream (OpenAI, Anthropic and Gemini style
// chunks, cut at random byte boundaries) against a bare JSON.parse of the same payloads. The
// issue's goal is a throughput ratio ≥ 0.5; `report` checks ceilings, so the goal figure is the
// inverse: parser time ÷ bare JSON.parse time ≤ 2. Prints a table and one JSON line.
import { interleaved, report, seededRandom } from '@cairn/bench';
import { SseParser } from '../dist/index.js';

const TARGET_BYTES = 50 * 1024 * 1024;
const MAX_CHUNK_BYTES = 1024;
const ROUNDS = 7;

// A seeded generator, so every run parses the same stream.
const random = seededRandom();
const pick = (items) => items[Math.floor(random() * items.length)];
const WORDS = [
  'the',
  'file',
  'greeting',
  'function',
  'résumé',
  'naïve',
  '日本語',
  'テスト',
  '🌍',
  '🚀',
  'x\n',
  'say "hi"',
  'path/to',
];
const tokens = () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(WORDS)).join(' ');

// Event bodies shaped like each provider's streaming chunks.
const EVENTS = [
  () =>
    `data: ${JSON.stringify({ id: 'chatcmpl-9xYz', object: 'chat.completion.chunk', created: 1735689600, model: 'gpt-4o-2024-08-06', system_fingerprint: 'fp_abc123', choices: [{ index: 0, delta: { content: tokens() }, logprobs: null, finish_reason: null }] })}\n\n`,
  () =>
    `data: ${JSON.stringify({ id: 'chatcmpl-9xYz', object: 'chat.completion.chunk', created: 1735689600, model: 'gpt-4o-2024-08-06', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify(tokens()).slice(0, 12) } }] }, finish_reason: null }] })}\n\n`,
  () =>
    `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: tokens() } })}\n\n`,
  () =>
    `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: tokens() }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 11577, totalTokenCount: 11590 }, modelVersion: 'gemini-2.5-flash', responseId: 'mockResp4610830002' })}\r\n\r\n`,
];

const encoder = new TextEncoder();
const parts = [];
const payloads = [];
let size = 0;
while (size < TARGET_BYTES) {
  const event = pick(EVENTS)();
  const bytes = encoder.encode(event);
  parts.push(bytes);
  payloads.push(event.slice(event.indexOf('data: ') + 6).trimEnd());
  size += bytes.length;
}
const stream = new Uint8Array(size);
let offset = 0;
for (const bytes of parts) {
  stream.set(bytes, offset);
  offset += bytes.length;
}
const chunks = [];
for (let start = 0; start < size; ) {
  const end = Math.min(size, start + 1 + Math.floor(random() * MAX_CHUNK_BYTES));
  chunks.push(stream.subarray(start, end));
  start = end;
}

let parsedEvents = 0;
const parseStream = () => {
  const parser = new SseParser();
  let count = 0;
  for (const chunk of chunks)
    for (const event of parser.push(chunk)) count += JSON.parse(event.data) === null ? 0 : 1;
  for (const event of parser.end()) count += JSON.parse(event.data) === null ? 0 : 1;
  parsedEvents = count;
};
const parseBare = () => {
  for (const payload of payloads) JSON.parse(payload);
};

const times = await interleaved(ROUNDS, {
  sse: { fn: parseStream, iterations: 1 },
  bare: { fn: parseBare, iterations: 1 },
});
if (parsedEvents !== payloads.length)
  throw new Error(`parsed ${parsedEvents} events, expected ${payloads.length}`);

const megabytes = size / 1024 / 1024;
const throughput = (ms) => megabytes / (ms / 1000);
const ok = report(
  'provider-utils: SSE + JSON.parse vs bare JSON.parse',
  [
    {
      name: 'SseParser + JSON.parse throughput',
      value: throughput(times.sse),
      unit: 'MB/s',
      detail: `${times.sse.toFixed(0)} ms`,
      peer: { name: 'bare JSON.parse', value: throughput(times.bare), unit: 'MB/s' },
    },
    {
      name: 'bare JSON.parse throughput',
      value: throughput(times.bare),
      unit: 'MB/s',
      detail: `${times.bare.toFixed(0)} ms`,
    },
    {
      name: 'throughput ratio (SSE + parse ÷ bare parse)',
      value: throughput(times.sse) / throughput(times.bare),
      detail: 'issue goal ≥ 0.5, checked by the next figure',
      peer: { name: 'bare JSON.parse', value: throughput(times.bare), unit: 'MB/s' },
    },
    {
      name: 'SSE + parse time ÷ bare parse time',
      value: times.sse / times.bare,
      goal: 2,
      detail: '≤ 2 is the same as a throughput ratio ≥ 0.5',
      peer: { name: 'bare JSON.parse', value: times.bare, unit: 'ms' },
    },
  ],
  { streamBytes: size, events: payloads.length, chunks: chunks.length, rounds: ROUNDS },
);
process.exitCode = ok ? 0 : 1;
