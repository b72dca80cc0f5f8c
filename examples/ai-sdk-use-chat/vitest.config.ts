import { defineCairnTestConfig, scaledTimeout } from '@cairn/vitest-config';

// The browser test builds the app and starts cairn-server, its mock model and Vite's preview server.
export default defineCairnTestConfig({
  test: {
    testTimeout: scaledTimeout(60_000),
    hookTimeout: scaledTimeout(120_000),
  },
});
