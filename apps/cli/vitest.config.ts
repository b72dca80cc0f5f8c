import { defineCairnTestConfig, scaledTimeout } from '@cairn/vitest-config';

// postgres-test-server gives `--store postgres` a real, throwaway PostgreSQL. The end-to-end tests
// start the built `cairn` several times each (about half a second apiece, more on a busy machine).
export default defineCairnTestConfig({
  test: {
    globalSetup: ['@cairn/postgres-test-server/global-setup'],
    testTimeout: scaledTimeout(60_000),
  },
});
