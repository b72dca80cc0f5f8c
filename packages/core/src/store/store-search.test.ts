import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import { assertStoreSearches } from './store-search.js';

describe('assertStoreSearches', () => {
  it('passes a store that claims search', () => {
    expect(() =>
      assertStoreSearches({ capabilities: { persistent: false, concurrentInstances: false, search: true } }),
    ).not.toThrow();
  });

  it('refuses a store that does not claim it with UNSUPPORTED_OPERATION', () => {
    let caught: unknown;
    try {
      assertStoreSearches({ capabilities: { persistent: true, concurrentInstances: true } });
    } catch (error) {
      caught = error;
    }
    expect(CairnError.is(caught) && caught.code).toBe('UNSUPPORTED_OPERATION');
  });
});
