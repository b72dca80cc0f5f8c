import { defineCairnTestConfig } from '@cairn/vitest-config';

// The tests start real servers themselves (npm binaries, and the system's when there are any); no global
// setup. initdb plus start takes seconds on a loaded machine.
export default defineCairnTestConfig({
  test: { include: ['*.test.ts'], testTimeout: 120_000 },
});
