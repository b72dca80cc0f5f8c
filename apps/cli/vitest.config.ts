import { defineCairnTestConfig } from '@cairn/vitest-config';

// postgres-test-server gives `--store postgres` a real, throwaway PostgreSQL.
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/postgres-test-server/global-setup'],
  },
});
