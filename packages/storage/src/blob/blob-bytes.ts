import { type BlobRange, CairnError } from '@cairn/core';
import { encodeBlobText } from './blob-text.js';

/** Blob data as bytes: strings are stored as UTF-8, lone surrogates kept (see `encodeBlobText`). */
export function toBlobBytes(data: string | Uint8Array): Uint8Array {
  if (typeof data === 'string') return encodeBlobText(data);
  if (data instanceof Uint8Array) return data;
  throw new CairnError('INVALID_ARGUMENT', 'Blob data must be a string or a Uint8Array');
}

/** Checks a range: `offset` and `length` are non-negative integers. */
export function normalizeBlobRange(range: BlobRange = {}): { offset: number; length?: number } {
  const { offset = 0, length } = range;
  for (const [name, value] of [
    ['offset', offset],
    ['length', length],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `Blob range ${name} must be a non-negative integer, got ${String(value)}`,
      );
    }
  }
  return length === undefined ? { offset } : { offset, length };
}

/** The bytes of `blob` in `range` (a view, not a copy). A range past the end is cut short. */
export function sliceBlob(blob: Uint8Array, range?: BlobRange): Uint8Array {
  const { offset, length } = normalizeBlobRange(range);
  return blob.subarray(offset, length === undefined ? undefined : offset + length);
}
