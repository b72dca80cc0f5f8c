import { CairnError, type LoadOptions } from '@cairn/core';

/** `LoadOptions` checked and with defaults applied. */
export interface NormalizedLoadOptions {
  fromSeq: number;
  toSeq: number;
  limit: number;
  direction: 'forward' | 'backward';
}

function checkInteger(name: string, value: number | undefined, min: number): void {
  if (value === undefined || (Number.isSafeInteger(value) && value >= min)) return;
  throw new CairnError('INVALID_ARGUMENT', `${name} must be an integer >= ${min}, got ${String(value)}`);
}

/** Throws `INVALID_ARGUMENT` for a bad option; absent bounds become 1 and `MAX_SAFE_INTEGER`. */
export function normalizeLoadOptions(options: LoadOptions = {}): NormalizedLoadOptions {
  checkInteger('fromSeq', options.fromSeq, 0);
  checkInteger('toSeq', options.toSeq, 0);
  checkInteger('limit', options.limit, 0);
  const direction = options.direction ?? 'forward';
  if (direction !== 'forward' && direction !== 'backward') {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `direction must be "forward" or "backward", got ${String(direction)}`,
    );
  }
  return {
    fromSeq: Math.max(1, options.fromSeq ?? 1),
    toSeq: options.toSeq ?? Number.MAX_SAFE_INTEGER,
    limit: options.limit ?? Number.MAX_SAFE_INTEGER,
    direction,
  };
}

/**
 * Applies a load window to messages held in `seq` order (the in-memory and file stores): the range,
 * then the direction, then the limit, so `{ direction: 'backward', limit: 20 }` is "the last 20".
 */
export function selectRange<T extends { seq?: number | undefined }>(
  messagesInSeqOrder: readonly T[],
  options: NormalizedLoadOptions,
): T[] {
  const inRange = messagesInSeqOrder.filter((message) => {
    const seq = message.seq ?? 0;
    return seq >= options.fromSeq && seq <= options.toSeq;
  });
  if (options.direction === 'backward') inRange.reverse();
  return inRange.slice(0, Math.min(options.limit, inRange.length));
}
