import { defineCairnTestConfig, scaledTimeout } from '@cairn/vitest-config';

// build-package: the README example imports the built package. postgres-test-server: the scale-out tests run two servers on one real, throwaway PostgreSQL.
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/vitest-config/build-package', '@cairn/postgres-test-server/global-setup'],
    testTimeout: scaledTimeout(60_000),
  },
});
