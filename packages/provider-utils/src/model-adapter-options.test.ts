import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { resolveModelAdapterOptions } from './model-adapter-options.js';

describe('resolveModelAdapterOptions', () => {
  it('defaults maxRetries to 2 and keeps every other option', () => {
    expect(resolveModelAdapterOptions('x', { model: 'm', baseURL: 'http://h', headers: { a: 'b' } })).toEqual(
      {
        model: 'm',
        baseURL: 'http://h',
        headers: { a: 'b' },
        maxRetries: 2,
      },
    );
  });

  it('refuses an empty model and numbers the provider would choke on, with INVALID_ARGUMENT', () => {
    for (const options of [
      { model: '' },
      { model: 'm', maxRetries: -1 },
      { model: 'm', maxRetries: 1.5 },
      { model: 'm', timeoutMs: 0 },
    ]) {
      expect(() => resolveModelAdapterOptions('x', options)).toThrow(CairnError);
      try {
        resolveModelAdapterOptions('x', options);
      } catch (error) {
        expect(CairnError.is(error, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
  });
});
