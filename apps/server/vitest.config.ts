import { defineCairnTestConfig } from '@cairn/vitest-config';

// build-package: the README example imports the built package. postgres-test-server: the scale-out tests run two servers on one real, throwaway PostgreSQL.
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/vitest-config/build-package', '@cairn/postgres-test-server/global-setup'],
    testTimeout: 60_000,
  },
});
