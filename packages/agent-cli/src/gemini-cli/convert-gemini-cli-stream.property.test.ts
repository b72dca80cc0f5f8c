import { readFileSync } from 'node:fs';
import { isAgentOutput } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksWithJunk, collectStream, isFromJunk, junkLine } from '../../test/stream-test-support.js';
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
const collect = (chunks: readonly (string | Uint8Array)[]) =>
  collectStream((source) => convertGeminiCliStream(source, { now }), chunks);

describe('convertGeminiCliStream', () => {
  it('gives the same events for any chunking with junk lines inserted', async () => {
    const expected = await collect([FIXTURE]);
    await fc.assert(
      fc.asyncProperty(
        chunksWithJunk(LINES, junkLine('{"type":"message","role":"assistant"')),
        async (chunks) => {
          const events = await collect(chunks);
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
