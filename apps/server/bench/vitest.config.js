import { defineConfig } from 'vitest/config';

// The bench's own helpers' tests (`pnpm test:bench`): the package's config runs src/ and test/ only,
// with a global setup (a build, a PostgreSQL server) these plain-logic tests do not need.
export default defineConfig({ test: { root: import.meta.dirname, include: ['*.test.mjs'] } });
