import { defineCairnTestConfig } from '@cairn/vitest-config';

// build-package: the README example and the lazy-loading check run the built package by name.
// postgres-test-server: openStore is tested on a real PostgreSQL (a throwaway server for the run,
// unless DATABASE_URL is already set).
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/vitest-config/build-package', '@cairn/postgres-test-server/global-setup'],
  },
});
