import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClaudeCodeConverter } from './create-claude-code-converter.js';

const now = () => new Date('2026-11-22T09:00:00.000Z');
const realLines = (['main', 'apierr', 'taskcreate-agent', 'sigint-sleep'] as const).flatMap((name) =>
  readFileSync(new URL(`../../fixtures/real/claude-code/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>),
);

// A line of a real capture with fields a newer CLI might add (unmapped: kept in `unknown` events).
const lineWithExtras = fc
  .tuple(
    fc.nat(realLines.length - 1),
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 4 }),
  )
  .map(([index, extras]) => JSON.stringify({ ...extras, ...realLines[index] }));
const anyJsonLine = fc.jsonValue().map((value) => JSON.stringify(value));

describe('unknown events keep the parsed line as is (no copy)', () => {
  // The converter used to copy every `unknown` event's `raw` through JSON.stringify + JSON.parse.
  // It now keeps the parsed values; the events must be exactly what that copy gave.
  it('gives events equal to their JSON copy, for real lines with extra fields and any JSON line', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(lineWithExtras, anyJsonLine), { maxLength: 20 }), (lines) => {
        const converter = createClaudeCodeConverter({ now });
        const events = [...lines.flatMap((line) => converter.push(line)), ...converter.end()];
        expect(events).toEqual(JSON.parse(JSON.stringify(events)));
      }),
    );
  });
});
