import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIsoDateTime } from './claude-code-event-context.js';

// The format as a regex: the hand-written check must accept exactly what it accepts.
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// Strings near the format: valid ones with characters replaced, cut or added.
const nearIsoDateTime = fc
  .tuple(
    fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }),
    fc.constantFrom('Z', '+02:00', '-11:30', '', 'z', '+0200', '+02:0'),
    fc.constantFrom('', '.', '.5', '.123456789'),
    fc.array(fc.tuple(fc.nat(40), fc.constantFrom('', '0', 'a', ':', '-', '.', 'T', ' ', '٣')), {
      maxLength: 3,
    }),
  )
  .map(([date, zone, fraction, edits]) => {
    let text = `${date.toISOString().slice(0, 19)}${fraction}${zone}`;
    for (const [at, replacement] of edits) text = text.slice(0, at) + replacement + text.slice(at + 1);
    return text;
  });

describe('isIsoDateTime', () => {
  it('accepts date-times with seconds and a zone', () => {
    expect(isIsoDateTime('2026-11-22T08:49:48.458Z')).toBe(true);
    expect(isIsoDateTime('2026-11-22T08:49:48Z')).toBe(true);
    expect(isIsoDateTime('2026-11-22T08:49:48.1+01:00')).toBe(true);
    expect(isIsoDateTime('2026-11-22T08:49:48')).toBe(false);
    expect(isIsoDateTime('2026-11-22T08:49:48.Z')).toBe(false);
    expect(isIsoDateTime('2026-11-22 08:49:48Z')).toBe(false);
    expect(isIsoDateTime('2026-11-22T08:49:48Z ')).toBe(false);
  });

  it('agrees with the format written as a regex', () => {
    fc.assert(
      fc.property(fc.oneof(nearIsoDateTime, fc.string()), (text) => {
        expect(isIsoDateTime(text)).toBe(ISO_DATETIME.test(text));
      }),
      { numRuns: 2000 },
    );
  });
});
