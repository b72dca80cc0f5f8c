import { defineCairnTestConfig } from '@cairn/vitest-config';

export default defineCairnTestConfig({ test: { globalSetup: ['@cairn/vitest-config/build-package'] } });
