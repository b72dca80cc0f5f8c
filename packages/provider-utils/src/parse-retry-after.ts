import { type HeadersLike, readHeader } from './read-header.js';

/**
 * How long the provider asks the caller to wait, in milliseconds: `retry-after-ms` (OpenAI,
 * Anthropic) first, then `retry-after` as seconds or as an HTTP date. `undefined` when neither is
 * there or readable; a date in the past gives 0.
 */
export function parseRetryAfter(
  headers: HeadersLike | undefined,
  now: () => number = Date.now,
): number | undefined {
  const milliseconds = parseNonNegative(readHeader(headers, 'retry-after-ms'));
  if (milliseconds !== undefined) return milliseconds;
  const retryAfter = readHeader(headers, 'retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;
  const seconds = parseNonNegative(retryAfter);
  if (seconds !== undefined) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

function parseNonNegative(text: string | undefined): number | undefined {
  // Number('') is 0 and Number('1e3') is 1000: accept plain decimals only.
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}
