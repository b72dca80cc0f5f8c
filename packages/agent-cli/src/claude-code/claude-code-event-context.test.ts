import type { JsonValue } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type EventBase,
  errorEventOf,
  isIsoDateTime,
  isoTime,
  statusEvent,
} from './claude-code-event-context.js';
import { unknownClaudeCodeEvent } from './unknown-claude-code-event.js';

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

// Contexts as the converter makes them: a timestamp, then a sub-agent's parent and a message id when known.
const eventBase = fc
  .record(
    {
      timestamp: fc.constantFrom('2026-11-22T08:49:48.458Z', 'now'),
      parentToolUseId: fc.string({ maxLength: 8 }),
      messageId: fc.string({ maxLength: 8 }),
    },
    { requiredKeys: ['timestamp'] },
  )
  .map(({ timestamp, parentToolUseId, messageId }) => {
    const base: EventBase = { timestamp };
    if (parentToolUseId !== undefined) base.parentToolUseId = parentToolUseId;
    if (messageId !== undefined) base.messageId = messageId;
    return base;
  });

describe('events built field by field', () => {
  // They replaced spreads (`{ type, ...base, … }`), which are slow in V8 when more fields follow:
  // the same keys in the same order, the same values.
  const same = (built: unknown, spread: unknown) =>
    expect(JSON.stringify(built)).toBe(JSON.stringify(spread));

  it('are the events the spreads gave', () => {
    fc.assert(
      fc.property(eventBase, fc.jsonValue(), fc.string(), fc.boolean(), (base, raw, text, flag) => {
        same(unknownClaudeCodeEvent(raw as JsonValue, base), {
          type: 'unknown',
          ...base,
          source: 'claude-code',
          raw,
        });
        same(statusEvent(base, 'interrupted', text), {
          type: 'status',
          ...base,
          status: 'interrupted',
          message: text,
        });
        same(errorEventOf(base, 'AGENT_FAILED', text, flag, !flag), {
          type: 'error',
          ...base,
          code: 'AGENT_FAILED',
          message: text,
          retryable: flag,
          fatal: !flag,
        });
      }),
    );
  });
});

describe('isoTime', () => {
  const MIDNIGHT = Date.UTC(2027, 0, 1);
  // It keeps the last day's text: times in any order, on the same day, on others and at the ends
  // of days and of Date's range, must give what Date gives.
  const time = fc.oneof(
    fc.integer({ min: 0, max: 8.64e15 }),
    fc.integer({ min: 1_700_000_000_000, max: 1_700_000_000_000 + 3 * 86_400_000 }),
    fc
      .tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -1, max: 1 }))
      .map(([days, offset]) => MIDNIGHT + days * 86_400_000 + offset),
    fc.integer({ min: -8.64e15, max: 0 }),
  );

  it('gives what Date.prototype.toISOString gives', () => {
    fc.assert(
      fc.property(fc.array(time, { maxLength: 20 }), (times) => {
        for (const value of times) expect(isoTime(value)).toBe(new Date(value).toISOString());
      }),
    );
  });
});
