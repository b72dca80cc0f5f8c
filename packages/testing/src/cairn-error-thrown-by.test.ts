import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { cairnErrorThrownBy } from './cairn-error-thrown-by.js';

describe('cairnErrorThrownBy', () => {
  it('returns the CairnError thrown, rethrows anything else, and fails when nothing is thrown', () => {
    const refusal = new CairnError('INVALID_ARGUMENT', 'no');
    expect(
      cairnErrorThrownBy(() => {
        throw refusal;
      }),
    ).toBe(refusal);
    expect(() =>
      cairnErrorThrownBy(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
    expect(() => cairnErrorThrownBy(() => 1)).toThrow('nothing was thrown');
  });
});
