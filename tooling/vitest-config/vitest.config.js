import { defineCairnTestConfig } from './index.js';

// This package's own tests: the totals of `pnpm test` (summarise-reports.mjs) on fixture reports.
export default defineCairnTestConfig({
  test: {
    include: ['*.test.mjs'],
  },
});
