export { describeConversationStoreConformance } from './describe-conformance.js';
export * from './runner.js';
