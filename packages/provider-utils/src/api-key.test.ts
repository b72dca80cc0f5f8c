import { CairnError } from '@cairn/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { missingApiKeyError, readApiKey, requireApiKey } from './api-key.js';

const VARS = ['CAIRN_TEST_KEY_A', 'CAIRN_TEST_KEY_B'];

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('readApiKey', () => {
  it('takes the option, else the first variable set, counting an empty string as none', () => {
    vi.stubEnv('CAIRN_TEST_KEY_A', '');
    vi.stubEnv('CAIRN_TEST_KEY_B', 'from-b');
    expect(readApiKey('given', VARS)).toBe('given');
    expect(readApiKey(undefined, VARS)).toBe('from-b');
    expect(readApiKey('', VARS)).toBe('from-b');
    vi.stubEnv('CAIRN_TEST_KEY_A', 'from-a');
    expect(readApiKey(undefined, VARS)).toBe('from-a');
  });

  it('is undefined when nothing is set', () => {
    vi.stubEnv('CAIRN_TEST_KEY_A', '');
    vi.stubEnv('CAIRN_TEST_KEY_B', '');
    expect(readApiKey(undefined, VARS)).toBeUndefined();
  });
});

describe('requireApiKey', () => {
  it('throws LLM_AUTH naming the option and every variable', () => {
    vi.stubEnv('CAIRN_TEST_KEY_A', '');
    vi.stubEnv('CAIRN_TEST_KEY_B', '');
    const thrown = (() => {
      try {
        requireApiKey('acme', undefined, VARS);
      } catch (error) {
        return error;
      }
    })();
    expect(CairnError.is(thrown, 'LLM_AUTH')).toBe(true);
    expect(thrown).toMatchObject({
      message: 'acme: no API key; pass `apiKey` or set CAIRN_TEST_KEY_A or CAIRN_TEST_KEY_B',
      retryable: false,
      details: { provider: 'acme', envVars: VARS },
    });
    expect(missingApiKeyError('acme', VARS).message).toBe((thrown as CairnError).message);
    vi.stubEnv('CAIRN_TEST_KEY_B', 'k');
    expect(requireApiKey('acme', undefined, VARS)).toBe('k');
  });
});
