import { CairnError, type CairnErrorCode } from '@cairn/core';
import { expect } from 'vitest';

/** Asserts `error` is a `CairnError` with `code` and returns it typed. */
export function expectCairnError(error: unknown, code: CairnErrorCode): CairnError {
  expect(CairnError.is(error), `expected a CairnError ${code}, got ${String(error)}`).toBe(true);
  const cairnError = error as CairnError;
  expect(cairnError.code, cairnError.message).toBe(code);
  return cairnError;
}

/** Runs `promise`, which must reject, and returns why. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail('expected the call to fail');
}
