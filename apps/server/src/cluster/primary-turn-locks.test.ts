import { describe, expect, it } from 'vitest';
import { PrimaryTurnLocks } from './primary-turn-locks.js';

function locksWithLog() {
  const granted: string[] = [];
  const locks = new PrimaryTurnLocks(({ workerId, request }) => granted.push(`${workerId}:${request}`));
  return { locks, granted };
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
});
