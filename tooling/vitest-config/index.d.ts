import type { UserConfig } from 'vitest/config';

export declare const TEST_REPORT_FILE: string;
export declare function defineCairnTestConfig(overrides?: UserConfig): UserConfig;
export {
  LOADED_MACHINE_FACTOR,
  propertyTimeout,
  scaledTimeout,
  timeoutFactor,
} from './load.js';
