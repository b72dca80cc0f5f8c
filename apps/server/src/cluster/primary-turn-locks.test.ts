import { describe, expect, it } from 'vitest';
import { PrimaryTurnLocks } from './primary-turn-locks.js';

function locksWithLog() {
  const granted: string[] = [];
  const revoked: string[] = [];
  const locks = new PrimaryTurnLocks(
    ({ workerId, request }) => granted.push(`${workerId}:${request}`),
    ({ workerId, request }) => revoked.push(`${workerId}:${request}`),
  );
  return { locks, granted, revoked };
}

describe('PrimaryTurnLocks', () => {
  it('grants a conversation to one holder at a time, in the order asked', () => {
    const { locks, granted } = locksWithLog();
    locks.acquire('c1', { workerId: 1, request: 1 });
    locks.acquire('c1', { workerId: 2, request: 1 });
    locks.acquire('c2', { workerId: 2, request: 2 });
    expect(granted).toEqual(['1:1', '2:2']);
    locks.release(1, 1);
    expect(granted).toEqual(['1:1', '2:2', '2:1']);
    locks.release(2, 1);
    locks.release(2, 2);
    expect(locks.size()).toBe(0);
  });

  it('withdraws a waiting request without granting anything', () => {
    const { locks, granted } = locksWithLog();
    locks.acquire('c1', { workerId: 1, request: 1 });
    locks.acquire('c1', { workerId: 2, request: 1 });
    locks.acquire('c1', { workerId: 2, request: 2 });
    locks.release(2, 1);
    expect(granted).toEqual(['1:1']);
    locks.release(1, 1);
    expect(granted).toEqual(['1:1', '2:2']);
  });

  it('passes on what a dead worker held or waited for', () => {
    const { locks, granted } = locksWithLog();
    locks.acquire('c1', { workerId: 1, request: 1 });
    locks.acquire('c2', { workerId: 2, request: 1 });
    locks.acquire('c2', { workerId: 1, request: 2 });
    locks.acquire('c2', { workerId: 3, request: 1 });
    locks.acquire('c1', { workerId: 2, request: 2 });
    locks.releaseWorker(1);
    expect(granted).toEqual(['1:1', '2:1', '2:2']);
    locks.release(2, 1);
    expect(granted).toEqual(['1:1', '2:1', '2:2', '3:1']);
    // A late release of the dead worker's request changes nothing.
    locks.release(1, 2);
    expect(granted).toHaveLength(4);
  });

  it('asks the holder for the lock back, once, as soon as someone waits behind it', () => {
    const { locks, granted, revoked } = locksWithLog();
    locks.acquire('c1', { workerId: 1, request: 1 });
    expect(revoked).toEqual([]);
    locks.acquire('c1', { workerId: 2, request: 1 });
    locks.acquire('c1', { workerId: 3, request: 1 });
    expect(revoked).toEqual(['1:1']);
    // The next holder has someone behind it too: asked at once; the last one is not.
    locks.release(1, 1);
    expect(granted).toEqual(['1:1', '2:1']);
    expect(revoked).toEqual(['1:1', '2:1']);
    locks.release(2, 1);
    expect(granted).toEqual(['1:1', '2:1', '3:1']);
    expect(revoked).toEqual(['1:1', '2:1']);
  });
});
