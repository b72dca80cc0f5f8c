import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { scaledTimeout, workersPerPackage } from './load.js';

export { LOADED_MACHINE_FACTOR, propertyTimeout, scaledTimeout, timeoutFactor } from './load.js';

/** Where each package's machine-readable results go; `run-all-tests.mjs` sums them. */
export const TEST_REPORT_FILE = '.test-results/vitest.json';

const base = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: TEST_REPORT_FILE }]],
    globalSetup: [fileURLToPath(new URL('./signal-note.js', import.meta.url))],
    // 20 s / 60 s on an idle machine; × LOADED_MACHINE_FACTOR on CI and under `pnpm test` (README).
    testTimeout: scaledTimeout(20_000),
    hookTimeout: scaledTimeout(60_000),
    // Packages × workers ≈ cores: `pnpm test` runs CAIRN_TEST_CONCURRENCY packages at once.
    maxWorkers: workersPerPackage(),
    minWorkers: 1,
  },
});

/** The shared settings, with package-specific overrides merged on top. */
export function defineCairnTestConfig(overrides = {}) {
  return mergeConfig(base, overrides);
}
