import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

describe('parseRetryAfter', () => {
  const now = () => Date.parse('2025-01-01T00:00:00Z');

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    expect(parseRetryAfter(new Headers({ 'Retry-After-Ms': '12.5' }))).toBe(12.5);
  });

  it('reads retry-after as seconds', () => {
    expect(parseRetryAfter({ 'Retry-After': '2' })).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.5' }))).toBe(500);
  });

  it('reads retry-after as an HTTP date, never negative', () => {
    expect(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, now)).toBe(0);
  });

  it('ignores missing or unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter({})).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after-ms': '-5', 'retry-after': '1' })).toBe(1000);
    expect(parseRetryAfter({ 'retry-after': ['3', '4'] })).toBe(3000);
  });
});
