import { describe, expect, it } from 'vitest';
import { ownEntry } from './own-entry.js';

describe('ownEntry', () => {
  const statuses = { rate_limit: 429 };

  it("finds the record's own keys", () => {
    expect(ownEntry(statuses, 'rate_limit')).toBe(429);
  });

  it('finds nothing for the names every object inherits', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(ownEntry(statuses, name)).toBeUndefined();
  });
});
