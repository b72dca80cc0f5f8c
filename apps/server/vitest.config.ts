import { defineCairnTestConfig, scaledTimeout } from '@cairn/vitest-config';

// build-package: the README example imports the built package. postgres-test-server: the scale-out tests run two servers on one real, throwaway PostgreSQL.
export default defineCairnTestConfig({
  test: {
    // The bench's own helpers (its CPU categories, the model's stamps) are tested with the package.
    include: ['bench/*.test.mjs', 'web/src/**/*.test.{ts,tsx}'],
    globalSetup: ['@cairn/vitest-config/build-package', '@cairn/postgres-test-server/global-setup'],
    testTimeout: scaledTimeout(60_000),
  },
});
