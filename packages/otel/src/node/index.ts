export { type OtelSdk, type StartOtelSdkOptions, startOtelSdk } from './start-otel-sdk.js';
