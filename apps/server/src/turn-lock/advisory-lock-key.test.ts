import { describe, expect, it } from 'vitest';
import { advisoryLockKey } from './advisory-lock-key.js';

describe('advisoryLockKey', () => {
  it('is a stable signed 64-bit integer per conversation', () => {
    const key = advisoryLockKey('c1');
    expect(key).toBe(advisoryLockKey('c1'));
    expect(key).not.toBe(advisoryLockKey('c2'));
    expect(key).toMatch(/^-?\d+$/);
    expect(BigInt(key)).toBe(BigInt.asIntN(64, BigInt(key)));
  });

  it('does not change between versions (other instances must compute the same key)', () => {
    expect(advisoryLockKey('c1')).toMatchInlineSnapshot(`"-5670062855117799167"`);
  });
});
