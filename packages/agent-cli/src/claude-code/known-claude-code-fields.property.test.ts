import type { JsonValue } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './claude-code-event-context.js';
import { KnownClaudeCodeFields } from './unknown-claude-code-event.js';

const MAPPED = ['message', 'usage', 'result'];
const KNOWN = new Set([
  'type',
  'subtype',
  'uuid',
  'session_id',
  'parent_tool_use_id',
  'timestamp',
  'request_id',
  ...MAPPED,
]);

// Keys from the known set and others (index-like ones and `__proto__` too), few enough that lines
// share keys, in the same order or in others.
const key = fc.constantFrom(...KNOWN, 'extra', 'model', 'tools', 'constructor', '__proto__', '1', '20');
const line = fc
  .uniqueArray(fc.tuple(key, fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 1 }))), {
    selector: ([name]) => name,
    maxLength: 10,
  })
  .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as JsonObject);

// What the check did before it remembered anything: every own key the set does not know, copied
// one by one (a `__proto__` field then sets the prototype, as it did).
function unknownFieldsOf(value: JsonObject): JsonObject | undefined {
  let fields: JsonObject | undefined;
  for (const name in value) {
    if (KNOWN.has(name) || !Object.hasOwn(value, name)) continue;
    fields ??= {};
    fields[name] = value[name] as JsonValue;
  }
  return fields;
}

describe('KnownClaudeCodeFields', () => {
  // It remembers the last line's known keys to skip set lookups: lines in any order must still
  // give what the set alone gives, keys in the same order.
  it('finds the unknown fields of every line, whatever lines came before', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const known = new KnownClaudeCodeFields(MAPPED);
        for (const value of lines) {
          const actual = known.unknownFields(value);
          const expected = unknownFieldsOf(value);
          expect(actual).toEqual(expected);
          if (actual === undefined || expected === undefined) continue;
          expect(Reflect.ownKeys(actual)).toEqual(Reflect.ownKeys(expected));
          expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
        }
      }),
    );
  });
});
