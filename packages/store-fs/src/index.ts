export type { FsStoreInternals } from './create-fs-store-parts.js';
export type { FileSyncer } from './file-syncer.js';
export { createFsConversationStore, FsConversationStore } from './fs-conversation-store.js';
export { FsLayout } from './fs-layout.js';
export type { FsConversationStoreOptions, FsDurability } from './fs-store-options.js';
export type { CorruptReason } from './log-record-types.js';
export type { QuarantineReport } from './quarantine.js';
