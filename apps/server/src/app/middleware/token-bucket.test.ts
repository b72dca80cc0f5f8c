import { describe, expect, it } from 'vitest';
import { KeyedTokenBuckets, TokenBucket, type TokenBucketRate } from './token-bucket.js';

const takeMany = (bucket: TokenBucket, count: number, now: number) =>
  Array.from({ length: count }, () => bucket.take(now).allowed);

describe('TokenBucket', () => {
  it('starts full, then denies with the wait for the next token', () => {
    const bucket = new TokenBucket({ requestsPerSecond: 4, burst: 3 }, 0);
    expect(bucket.take(0)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0, resetMs: 250 });
    expect(takeMany(bucket, 2, 0)).toEqual([true, true]);
    expect(bucket.take(0)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 250, resetMs: 750 });
    expect(bucket.take(100)).toMatchObject({ allowed: false, retryAfterMs: 150 });
    expect(bucket.take(250)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refills up to the burst and no further', () => {
    const bucket = new TokenBucket({ requestsPerSecond: 10, burst: 5 }, 0);
    takeMany(bucket, 5, 0);
    expect(bucket.isFull(0)).toBe(false);
    expect(bucket.isFull(500)).toBe(true);
    expect(takeMany(bucket, 6, 60_000)).toEqual([true, true, true, true, true, false]);
  });

  it('gains nothing from a clock that goes back', () => {
    const bucket = new TokenBucket({ requestsPerSecond: 1, burst: 1 }, 1_000);
    expect(bucket.take(1_000).allowed).toBe(true);
    expect(bucket.take(0).allowed).toBe(false);
    expect(bucket.take(1_500).allowed).toBe(false);
    expect(bucket.take(2_000).allowed).toBe(true);
  });

  it('handles rates below one a second', () => {
    const bucket = new TokenBucket({ requestsPerSecond: 0.5, burst: 1 }, 0);
    expect(bucket.take(0).allowed).toBe(true);
    expect(bucket.take(0)).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
    expect(bucket.take(2_000).allowed).toBe(true);
  });

  // A seeded random walk (mulberry32), so a failure replays: the bucket never lets through more
  // than `burst + rate × elapsed`, a denied caller that waits `retryAfterMs` gets in, and after
  // `resetMs` the whole burst is there again.
  it('holds its invariants over random request sequences', () => {
    const random = mulberry32(0xca125);
    for (let run = 0; run < 300; run += 1) {
      const rate: TokenBucketRate = {
        requestsPerSecond: Math.round((0.1 + random() * 50) * 10) / 10,
        burst: 1 + Math.floor(random() * 20),
      };
      const bucket = new TokenBucket(rate, 0);
      let now = 0;
      let allowed = 0;
      // Plain checks (an expect per step would be slow): the message says how to replay.
      const check = (holds: boolean, what: string) => {
        if (!holds) expect.fail(`${what}: run ${run}, ${JSON.stringify(rate)}, at ${now} ms`);
      };
      for (let step = 0; step < 200; step += 1) {
        now += random() < 0.5 ? 0 : Math.floor(random() * 300);
        const result = bucket.take(now);
        if (result.allowed) allowed += 1;
        check(
          allowed <= rate.burst + (rate.requestsPerSecond * now) / 1000 + 1e-6,
          'more than burst + rate × time',
        );
        check(result.remaining >= 0 && result.remaining < rate.burst, 'remaining out of range');
        if (!result.allowed) {
          check(result.retryAfterMs > 0, 'denied without a wait');
          now += result.retryAfterMs;
          check(bucket.take(now).allowed, 'denied after waiting retryAfterMs');
          allowed += 1;
        }
        if (random() < 0.05) {
          const last = bucket.take(now);
          if (last.allowed) allowed += 1;
          now += last.resetMs;
          check(takeMany(bucket, rate.burst, now).every(Boolean), 'not full after resetMs');
          allowed += rate.burst;
        }
      }
    }
  });
});

describe('KeyedTokenBuckets', () => {
  it('keeps a bucket per key', () => {
    const buckets = new KeyedTokenBuckets({ requestsPerSecond: 1, burst: 2 });
    expect(['a', 'a', 'a'].map((key) => buckets.take(key, 0).allowed)).toEqual([true, true, false]);
    expect(buckets.take('b', 0).allowed).toBe(true);
    expect(buckets.take('a', 1_000).allowed).toBe(true);
  });

  it('sweeps out full buckets on a later take, no sooner than the interval', () => {
    const buckets = new KeyedTokenBuckets({ requestsPerSecond: 10, burst: 1, sweepIntervalMs: 1_000 });
    for (let key = 0; key < 100; key += 1) buckets.take(`k${key}`, 0);
    expect(buckets.size).toBe(100);
    buckets.take('late', 999);
    expect(buckets.size).toBe(101);
    buckets.take('late', 1_000);
    // Every bucket refilled by then except the one just used.
    expect(buckets.size).toBe(1);
  });

  it('drops the least recently used bucket past maxKeys', () => {
    const buckets = new KeyedTokenBuckets({ requestsPerSecond: 1, burst: 1, maxKeys: 2 });
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('a', 0);
    buckets.take('c', 0);
    expect(buckets.size).toBe(2);
    // 'a' was used more recently than 'b', so it kept its (empty) bucket; 'b' starts over.
    expect(buckets.take('a', 0).allowed).toBe(false);
    expect(buckets.take('b', 0).allowed).toBe(true);
  });
});

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
