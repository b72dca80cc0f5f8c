export type { NodeSqliteDatabase, NodeSqliteStatement } from './node-sqlite-connection.js';
export type { SqliteDriverChoice } from './open-sqlite-connection.js';
export { SCHEMA_VERSION } from './schema/migrations.js';
export type { SqliteDriver, SqliteValue } from './sqlite-connection.js';
export { createSqliteConversationStore, SqliteConversationStore } from './sqlite-conversation-store.js';
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_DRIVER,
  DEFAULT_DURABILITY,
  type SqliteConversationStoreOptions,
  type SqliteDurability,
  type SqliteStoreCommonOptions,
  SYNCHRONOUS_BY_DURABILITY,
} from './sqlite-store-options.js';
