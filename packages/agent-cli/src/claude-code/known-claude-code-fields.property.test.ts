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

// Keys from the known set and others, so lines share keys in other orders and with other neighbours.
const key = fc.constantFrom(...KNOWN, 'extra', 'model', 'tools', 'constructor', 'toString');
const line = fc
  .uniqueArray(fc.tuple(key, fc.integer()), { selector: ([name]) => name, maxLength: 10 })
  .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as JsonObject);

// What the set alone says: every own key that is not known.
function expectedUnknown(value: JsonObject): JsonObject | undefined {
  const fields = Object.fromEntries(Object.entries(value).filter(([name]) => !KNOWN.has(name)));
  return Object.keys(fields).length === 0 ? undefined : fields;
}

describe('KnownClaudeCodeFields', () => {
  // It remembers the last line's known keys to skip set lookups: lines in any order must still be
  // checked as the set alone would.
  it('finds the unknown fields of every line, whatever lines came before', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const known = new KnownClaudeCodeFields(MAPPED);
        for (const value of lines) expect(known.unknownFields(value)).toEqual(expectedUnknown(value));
      }),
    );
  });
});
