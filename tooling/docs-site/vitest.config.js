import { defineCairnTestConfig } from '@cairn/vitest-config';

// The link check on hand-written sites; the real site is built and checked by `pnpm docs:build`.
export default defineCairnTestConfig({
  test: {
    include: ['scripts/*.test.mjs'],
  },
});
