import type { ModelMessage } from '@cairn/core';
import { propertyTimeout } from '@cairn/vitest-config/load';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CalibratedTokenizer } from './calibrated-tokenizer.js';
import { createEstimatingTokenizer } from './create-estimating-tokenizer.js';
import { createOpenAITokenizer } from './create-openai-tokenizer.js';
import { messageArb } from './test-support.js';

type Edit =
  | { kind: 'append'; message: ModelMessage }
  | { kind: 'insert' | 'replace'; at: number; message: ModelMessage }
  | { kind: 'remove' | 'truncate'; at: number }
  | { kind: 'calibrate'; reported: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), message: messageArb }),
  fc.record({
    kind: fc.constantFrom('insert' as const, 'replace' as const),
    at: fc.nat(),
    message: messageArb,
  }),
  fc.record({ kind: fc.constantFrom('remove' as const, 'truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('calibrate' as const), reported: fc.nat({ max: 100_000 }) }),
);

/** Applies the edit to `messages` in place; a calibration is recorded in `calibrations` instead. */
function apply(edit: Edit, messages: ModelMessage[], calibrations: [ModelMessage[], number][]): void {
  const at = 'at' in edit ? edit.at % (messages.length + 1) : 0;
  if (edit.kind === 'append') messages.push(edit.message);
  else if (edit.kind === 'insert') messages.splice(at, 0, edit.message);
  else if (edit.kind === 'replace' && at < messages.length) messages[at] = edit.message;
  else if (edit.kind === 'remove') messages.splice(at, 1);
  else if (edit.kind === 'truncate') messages.length = at;
  else if (edit.kind === 'calibrate') calibrations.push([[...messages], edit.reported]);
}

// A tokenizer that has counted every intermediate list (its caches are hot) must answer exactly as
// a new one that only replays the calibrations: no count may come from a stale cache entry. Lists
// start at 10–40 messages, so they cross SHORT_LIST_LENGTH (summed without running totals) both ways.
function checkAgainstFreshTokenizer(create: () => CalibratedTokenizer) {
  fc.assert(
    fc.property(
      fc.array(messageArb, { minLength: 10, maxLength: 40 }),
      fc.array(editArb, { maxLength: 30 }),
      fc.boolean(),
      (start, edits, copyEachTime) => {
        const tokenizer = create();
        let messages = [...start];
        const calibrations: [ModelMessage[], number][] = [];
        for (const edit of edits) {
          // Edit the same array in place, or hand over a new array of the same objects.
          if (copyEachTime) messages = [...messages];
          const calibrated = calibrations.length;
          apply(edit, messages, calibrations);
          if (calibrations.length > calibrated)
            tokenizer.calibrate(...(calibrations.at(-1) as [ModelMessage[], number]));
          const fresh = create();
          for (const [list, reported] of calibrations) fresh.calibrate(list, reported);
          expect(tokenizer.count(messages)).toBe(fresh.count(messages));
        }
      },
    ),
    { numRuns: 150 },
  );
}

describe('cached counting', () => {
  it(
    'answers as an uncached count over random appends, inserts, replacements, removals, truncations and calibrations (estimate)',
    () => {
      checkAgainstFreshTokenizer(() => createEstimatingTokenizer({ family: 'anthropic' }));
    },
    propertyTimeout(30_000),
  );

  it(
    'answers as an uncached count over the same random edits (OpenAI)',
    () => {
      checkAgainstFreshTokenizer(() => createOpenAITokenizer({ encoding: 'o200k_base' }));
    },
    propertyTimeout(30_000),
  );
});
