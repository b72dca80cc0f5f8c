import { defineCairnTestConfig } from '@cairn/vitest-config';

export default defineCairnTestConfig({ test: { globalSetup: ['test/build-dist.ts'] } });
