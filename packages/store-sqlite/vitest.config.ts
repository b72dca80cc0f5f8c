import { defineCairnTestConfig } from '@cairn/vitest-config';

// The multi-process conformance cases and the README test run the built package in child processes.
export default defineCairnTestConfig({ test: { globalSetup: ['@cairn/vitest-config/build-package'] } });
