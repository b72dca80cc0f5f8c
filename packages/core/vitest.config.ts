import { defineCairnTestConfig } from '@cairn/vitest-config';

export default defineCairnTestConfig();
