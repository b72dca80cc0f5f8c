import { defineConfig, mergeConfig } from 'vitest/config';

/** Where each package's machine-readable results go; `run-all-tests.mjs` sums them. */
export const TEST_REPORT_FILE = '.test-results/vitest.json';

const base = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: TEST_REPORT_FILE }]],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

/** The shared settings, with package-specific overrides merged on top. */
export function defineCairnTestConfig(overrides = {}) {
  return mergeConfig(base, overrides);
}
