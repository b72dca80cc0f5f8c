export { SCHEMA_VERSION } from './schema/migrations.js';
export { createSqliteConversationStore, SqliteConversationStore } from './sqlite-conversation-store.js';
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_DURABILITY,
  type SqliteConversationStoreOptions,
  type SqliteDurability,
  SYNCHRONOUS_BY_DURABILITY,
} from './sqlite-store-options.js';
