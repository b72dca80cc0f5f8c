import { defineCairnTestConfig } from '@cairn/vitest-config';

// build-package: the conformance kit's child processes and the README test run the built dist.
// postgres-test-server: a throwaway PostgreSQL for the run, unless DATABASE_URL is already set.
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/vitest-config/build-package', '@cairn/postgres-test-server/global-setup'],
  },
});
