import { describe, expect, it } from 'vitest';
import { convertLines } from './convert-lines.js';

async function* chunks(...parts: string[]) {
  yield* parts;
}

describe('convertLines', () => {
  it('gives the converter whole lines across chunk boundaries, then its end', async () => {
    const seen: string[] = [];
    const converter = {
      push: (line: string) => [`line:${line}`],
      end: () => ['end'],
    };
    for await (const event of convertLines(chunks('{"a":', '1}\n{"b"', ':2}\nlast'), converter))
      seen.push(event);
    expect(seen).toEqual(['line:{"a":1}', 'line:{"b":2}', 'line:last', 'end']);
  });
});
