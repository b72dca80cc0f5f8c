import { readFileSync } from 'node:fs';
import { type AgentOutput, isAgentOutput } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertClaudeCodeStream } from './convert-claude-code-stream.js';
import { createClaudeCodeConverter } from './create-claude-code-converter.js';

const NOW = new Date('2026-11-22T09:00:00.000Z');
const now = () => NOW;
const lines = (name: string): string[] =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '');

const realCli = (name: string): string[] =>
  readFileSync(new URL(`../../fixtures/real/claude-code/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '');

// The recordings of the real CLI bring its retry, task, interruption and API-error lines, and an image.
const REAL_LINES = [
  ...lines('stream.jsonl'),
  ...lines('stream-partial-messages.jsonl'),
  ...realCli('apierr'),
  ...realCli('taskcreate-agent'),
  ...realCli('sigint-sleep'),
  // The Read of a PNG: a tool result with an image block.
  ...readFileSync(new URL('../../fixtures/real-image/claude-code-read-image.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== ''),
];

async function collect(events: AsyncIterable<AgentOutput>): Promise<AgentOutput[]> {
  const all: AgentOutput[] = [];
  for await (const event of events) all.push(event);
  return all;
}

async function* chunksOf(text: string, cuts: number[]): AsyncGenerator<string> {
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    yield text.slice(start, cut);
    start = cut;
  }
  yield text.slice(start);
}

// Junk never parses as JSON (a leading `#`) and holds no line break, so it stays one bad line.
const junkLine = fc.string({ maxLength: 40 }).map((text) => `#${text.replace(/[\r\n]/g, ' ')}`);

const expected = (() => {
  const converter = createClaudeCodeConverter({ now });
  return [...REAL_LINES.flatMap((line) => converter.push(line)), ...converter.end()];
})();

describe('convertClaudeCodeStream', () => {
  it('gives the same events for the real lines however the input is chunked and whatever junk is inserted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(REAL_LINES.length), junkLine), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.constantFrom('\n', '\r\n'),
        async (junk, cutSeeds, lineBreak) => {
          const withJunk = [...REAL_LINES];
          for (const [position, line] of junk) withJunk.splice(Math.min(position, withJunk.length), 0, line);
          const text = withJunk.join(lineBreak);
          const cuts = cutSeeds.map((seed) => seed % (text.length + 1));
          const events = await collect(convertClaudeCodeStream(chunksOf(text, cuts), { now }));
          const badLines = events.filter((event) => event.type === 'error' && event.raw?.startsWith('#'));
          expect(badLines).toHaveLength(junk.length);
          expect(events.filter((event) => !badLines.includes(event))).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('never throws on arbitrary input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string(), fc.json(), fc.constantFrom(...REAL_LINES))),
        async (pieces) => {
          const events = await collect(convertClaudeCodeStream(chunksOf(pieces.join('\n'), []), { now }));
          expect(Array.isArray(events)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('turns any retry, task or status system line and any synthetic API error into valid events', () => {
    const anyValue = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.double());
    const systemLine = fc.record(
      {
        type: fc.constant('system'),
        subtype: fc.constantFrom(
          'api_retry',
          'task_started',
          'task_progress',
          'task_updated',
          'task_notification',
          'status',
        ),
        attempt: anyValue,
        max_retries: anyValue,
        retry_delay_ms: anyValue,
        error_status: anyValue,
        error: anyValue,
        task_id: anyValue,
        tool_use_id: anyValue,
        status: anyValue,
        usage: fc.oneof(anyValue, fc.record({ total_tokens: anyValue, duration_ms: anyValue })),
        patch: fc.oneof(anyValue, fc.record({ status: anyValue, end_time: anyValue })),
      },
      { requiredKeys: ['type', 'subtype'] },
    );
    const syntheticLine = fc.record({
      type: fc.constant('assistant'),
      // Known error names and names every object inherits (a lookup must not find `toString`).
      error: fc.oneof(fc.string(), fc.constantFrom('server_error', 'rate_limit', 'toString', 'constructor')),
      message: fc.record({
        id: fc.string(),
        model: fc.constant('<synthetic>'),
        content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })),
      }),
      parent_tool_use_id: fc.option(fc.string(), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(systemLine, syntheticLine), { maxLength: 5 }), (objects) => {
        const converter = createClaudeCodeConverter({ now });
        const events = objects.flatMap((object) => converter.push(JSON.stringify(object)));
        expect(events.every(isAgentOutput)).toBe(true);
        expect(events.filter((event) => event.type === 'error' && event.code === 'LLM_BAD_RESPONSE')).toEqual(
          [],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('converts a byte stream split inside multi-byte characters', async () => {
    const bytes = new TextEncoder().encode(`${lines('stream.jsonl').join('\n')}\n`);
    async function* oneByteAtATime(): AsyncGenerator<Uint8Array> {
      for (let index = 0; index < bytes.length; index += 7) yield bytes.subarray(index, index + 7);
    }
    const events = await collect(convertClaudeCodeStream(oneByteAtATime(), { now }));
    const converter = createClaudeCodeConverter({ now });
    expect(events).toEqual(lines('stream.jsonl').flatMap((line) => converter.push(line)));
  });
});
