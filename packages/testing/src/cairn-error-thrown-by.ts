import { CairnError } from '@cairn/core';

/**
 * The `CairnError` that `run` throws, for asserting a synchronous refusal; anything else it throws
 * is rethrown, and returning normally is an error.
 */
export function cairnErrorThrownBy(run: () => unknown): CairnError {
  try {
    run();
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CairnError, but nothing was thrown');
}
