import { defineCairnTestConfig } from '@cairn/vitest-config';

// postgres-test-server: the scale-out guide runs two server instances on one real, throwaway
// PostgreSQL (DATABASE_URL is passed to the guide's process). No build-package setup: this package
// has nothing to build; turbo builds the packages the guides import first (`^build`).
export default defineCairnTestConfig({
  test: {
    include: ['*.test.ts'],
    globalSetup: ['@cairn/postgres-test-server/global-setup'],
    testTimeout: 120_000,
  },
});
