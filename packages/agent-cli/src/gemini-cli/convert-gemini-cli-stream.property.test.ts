import { readFileSync } from 'node:fs';
import { type AgentOutput, isAgentOutput } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertGeminiCliStream } from './convert-gemini-cli-stream.js';

const realCli = (name: string): string =>
  readFileSync(new URL(`../../fixtures/real/gemini-cli/${name}.jsonl`, import.meta.url), 'utf8');
// The recorded stream, then the real CLI's: its silent writes, API error result and cut-off stream.
const FIXTURE = [
  readFileSync(new URL('./__fixtures__/stream.jsonl', import.meta.url), 'utf8'),
  realCli('main'),
  realCli('apierr'),
  realCli('sigint-sleep'),
]
  .map((text) => text.trimEnd())
  .join('\n');
const LINES = FIXTURE.split('\n').filter((line) => line !== '');
const now = () => new Date('2030-01-01T00:00:00.000Z');

async function collect(chunks: readonly (string | Uint8Array)[]): Promise<AgentOutput[]> {
  async function* source() {
    yield* chunks;
  }
  const events: AgentOutput[] = [];
  for await (const event of convertGeminiCliStream(source(), { now })) events.push(event);
  return events;
}

/** `text` cut at the given (sorted, deduplicated) positions, as bytes so UTF-8 characters may split. */
function cut(text: string, positions: number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const marks = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const mark of [...marks, bytes.length]) {
    chunks.push(bytes.subarray(start, mark));
    start = mark;
  }
  return chunks;
}

// Junk a terminal might mix in: not JSON, or JSON the CLI never writes. Never a line break inside.
const junkLine = fc.oneof(
  fc.string().map((s) => s.replace(/[\r\n]/g, ' ')),
  fc.constant('{"type":"message","role":"assistant"'),
  fc.jsonValue().map((value) => JSON.stringify({ type: 'telemetry', value })),
);

// Events caused by junk: errors for non-JSON lines, unknowns for JSON the CLI never writes.
const isFromJunk = (event: AgentOutput) => event.type === 'error' || event.type === 'unknown';

describe('convertGeminiCliStream', () => {
  it('gives the same events for any chunking with junk lines inserted', async () => {
    const expected = await collect([FIXTURE]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(LINES.length), junkLine), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (insertions, positions) => {
          const lines = [...LINES];
          for (const [index, junk] of insertions) lines.splice(index % (lines.length + 1), 0, junk);
          const events = await collect(cut(`${lines.join('\n')}\n`, positions));
          expect(events.filter((event) => !isFromJunk(event))).toEqual(
            expected.filter((event) => !isFromJunk(event)),
          );
          expect(events.filter((event) => event.type === 'error' && event.fatal)).toEqual(
            expected.filter((event) => event.type === 'error' && event.fatal),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('turns any error result into one fatal error with a message and valid events', async () => {
    const errorResult = fc.record({
      type: fc.constant('result'),
      timestamp: fc.constant('2030-01-01T00:00:00.000Z'),
      status: fc.constant('error'),
      error: fc.record(
        {
          type: fc.oneof(fc.string(), fc.jsonValue()),
          message: fc.oneof(
            fc.string(),
            fc.string().map((text) => `[API Error: ${text}]`),
            fc.jsonValue().map((value) => `[API Error: ${JSON.stringify({ error: value })}]`),
          ),
        },
        { requiredKeys: [] },
      ),
      stats: fc.record({
        input_tokens: fc.nat(),
        output_tokens: fc.nat(),
        total_tokens: fc.nat(),
        duration_ms: fc.nat(),
      }),
    });
    await fc.assert(
      fc.asyncProperty(errorResult, async (line) => {
        const events = await collect([`${JSON.stringify(line)}\n`]);
        expect(events.every(isAgentOutput)).toBe(true);
        const errors = events.filter((event) => event.type === 'error');
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ fatal: true, message: expect.any(String) });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.jsonValue().map((v) => `${JSON.stringify(v)}\n`),
          ),
        ),
        async (chunks) => {
          await expect(collect(chunks)).resolves.toBeInstanceOf(Array);
        },
      ),
      { numRuns: 200 },
    );
  });
});
