import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { isRetryableDatabaseError, toStoreError } from './to-store-error.js';

const withCode = (code: string, message = `failed with ${code}`) =>
  Object.assign(new Error(message), { code });

describe('toStoreError', () => {
  it('passes CairnErrors through', () => {
    const conflict = new CairnError('STORE_CONFLICT', 'stale');
    expect(toStoreError(conflict, 'append')).toBe(conflict);
  });

  it('makes lost and refused connections STORE_UNAVAILABLE, retryable', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('08006'),
      withCode('53300', 'too many connections'),
      withCode('40P01', 'deadlock detected'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ]) {
      expect(isRetryableDatabaseError(error), error.message).toBe(true);
      const mapped = toStoreError(error, 'load');
      expect(mapped.code).toBe('STORE_UNAVAILABLE');
      expect(mapped.retryable).toBe(true);
      expect(mapped.cause).toBe(error);
    }
  });

  it('makes SQL errors nobody expected STORE_UNAVAILABLE, not retryable, keeping the cause', () => {
    for (const error of [
      withCode('42P01', 'relation "x" does not exist'),
      withCode('28P01', 'password authentication failed'),
      withCode('3D000', 'database "nope" does not exist'),
      new Error('Cannot use a pool after calling end on the pool'),
    ]) {
      const mapped = toStoreError(error, 'load');
      expect(mapped.code).toBe('STORE_UNAVAILABLE');
      expect(mapped.retryable).toBe(false);
      expect(mapped.message).toContain(error.message);
      expect(mapped.cause).toBe(error);
    }
  });

  it('makes a duplicate seq or message id (the primary keys behind the lock) STORE_CONFLICT, and only that', () => {
    const duplicateSeq = Object.assign(withCode('23505', 'duplicate key value'), { table: 'cairn_messages' });
    const mapped = toStoreError(duplicateSeq, 'append');
    expect(mapped.code).toBe('STORE_CONFLICT');
    expect(mapped.retryable).toBe(false);
    const duplicateId = Object.assign(withCode('23505', 'duplicate key value'), {
      table: 'cairn_message_ids',
    });
    expect(toStoreError(duplicateId, 'append').code).toBe('STORE_CONFLICT');
    const elsewhere = Object.assign(withCode('23505', 'duplicate key value'), { table: 'pg_namespace' });
    expect(toStoreError(elsewhere, 'load').code).toBe('STORE_UNAVAILABLE');
  });
});
