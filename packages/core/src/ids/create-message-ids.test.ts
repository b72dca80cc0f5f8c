import { describe, expect, it } from 'vitest';
import { isSafeId } from './assert-safe-id.js';
import { createMessageIds } from './create-message-ids.js';

describe('createMessageIds', () => {
  it('makes distinct safe ids, and distinct ones again in another producer', () => {
    const first = createMessageIds();
    const second = createMessageIds();
    const ids = [...Array.from({ length: 1000 }, first), ...Array.from({ length: 1000 }, second)];
    expect(new Set(ids).size).toBe(2000);
    expect(ids.every(isSafeId)).toBe(true);
  });
});
