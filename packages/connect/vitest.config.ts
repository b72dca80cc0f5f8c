import { defineCairnTestConfig } from '@cairn/vitest-config';

// postgres-test-server: the runtime's checklists run on PostgreSQL too (a throwaway server for the
// run, unless DATABASE_URL is already set).
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/vitest-config/build-package', '@cairn/postgres-test-server/global-setup'],
  },
});
