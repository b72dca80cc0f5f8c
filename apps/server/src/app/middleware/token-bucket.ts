/** A token bucket's shape: it holds `burst` tokens at most and gains `requestsPerSecond` a second. */
export interface TokenBucketRate {
  requestsPerSecond: number;
  burst: number;
}

/** What taking one token answered. */
export interface TokenTake {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** 0 when allowed; else the milliseconds until a token is there. */
  retryAfterMs: number;
  /** Milliseconds until the bucket is full again. */
  resetMs: number;
}

// Refilling adds fractions of a token: this keeps a wait of exactly `retryAfterMs` from falling a
// rounding error short of the token it waited for.
const EPSILON = 1e-9;

/**
 * One caller's bucket: starts full, refills continuously, each request takes one token. Time is
 * passed in (milliseconds from a monotonic clock), so it is pure and testable.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly rate: TokenBucketRate,
    now: number,
  ) {
    this.tokens = rate.burst;
    this.updatedAt = now;
  }

  take(now: number): TokenTake {
    this.refill(now);
    const allowed = this.tokens >= 1 - EPSILON;
    if (allowed) this.tokens = Math.max(0, this.tokens - 1);
    const msPerToken = 1000 / this.rate.requestsPerSecond;
    return {
      allowed,
      remaining: Math.floor(this.tokens + EPSILON),
      retryAfterMs: allowed ? 0 : Math.ceil((1 - this.tokens) * msPerToken),
      resetMs: Math.ceil(Math.max(0, this.rate.burst - this.tokens - EPSILON) * msPerToken),
    };
  }

  /** A full bucket is no different from a new one: it can be forgotten. */
  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.rate.burst - EPSILON;
  }

  private refill(now: number): void {
    // A clock that went back (or the same instant) adds nothing.
    if (now <= this.updatedAt) return;
    const gained = ((now - this.updatedAt) * this.rate.requestsPerSecond) / 1000;
    this.tokens = Math.min(this.rate.burst, this.tokens + gained);
    this.updatedAt = now;
  }
}

export interface KeyedTokenBucketsOptions extends TokenBucketRate {
  /** Buckets kept at most (default 10,000); past it, the least recently used one is dropped. */
  maxKeys?: number;
  /** How often (at most) full buckets are swept out, in ms; default 60 s. Done on a take, never on a timer. */
  sweepIntervalMs?: number;
}

/**
 * A token bucket per key with bounded memory: full (idle) buckets are swept out now and then, and
 * past `maxKeys` the least recently used bucket goes (its caller then starts over with a full one).
 * No timers: sweeping happens on `take`, so nothing keeps the process alive or needs closing.
 */
export class KeyedTokenBuckets {
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently used first.
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly maxKeys: number;
  private readonly sweepIntervalMs: number;
  private lastSweep: number | undefined;

  constructor(private readonly options: KeyedTokenBucketsOptions) {
    this.maxKeys = options.maxKeys ?? 10_000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  take(key: string, now: number): TokenTake {
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? new TokenBucket(this.options, now);
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    return bucket.take(now);
  }

  /** Buckets held now. */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    this.lastSweep ??= now;
    if (now - this.lastSweep < this.sweepIntervalMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.isFull(now)) this.buckets.delete(key);
    }
  }
}
