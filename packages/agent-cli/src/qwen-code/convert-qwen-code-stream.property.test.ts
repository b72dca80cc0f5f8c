import { readFileSync } from 'node:fs';
import type { AgentOutput } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertQwenCodeStream } from './convert-qwen-code-stream.js';

const FIXTURE = readFileSync(new URL('../../fixtures/real/qwen-code/main.jsonl', import.meta.url), 'utf8');
const options = { now: () => new Date('2030-01-01T00:00:00.000Z') };

async function collect(chunks: readonly (string | Uint8Array)[]): Promise<AgentOutput[]> {
  async function* source() {
    yield* chunks;
  }
  const events: AgentOutput[] = [];
  for await (const event of convertQwenCodeStream(source(), options)) events.push(event);
  return events;
}

describe('convertQwenCodeStream', () => {
  it('gives the same events for any chunking of the bytes', async () => {
    const bytes = new TextEncoder().encode(FIXTURE);
    const expected = await collect([FIXTURE]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(bytes.length), { maxLength: 40 }), async (positions) => {
        const marks = [...new Set(positions)].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let start = 0;
        for (const mark of [...marks, bytes.length]) {
          chunks.push(bytes.subarray(start, mark));
          start = mark;
        }
        expect(await collect(chunks)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on arbitrary JSON lines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue()), async (values) => {
        await expect(collect(values.map((value) => `${JSON.stringify(value)}\n`))).resolves.toBeInstanceOf(
          Array,
        );
      }),
      { numRuns: 100 },
    );
  });
});
