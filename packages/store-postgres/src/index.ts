export { createPostgresConversationStore, PostgresConversationStore } from './postgres-conversation-store.js';
export { type PostgresStoreOptions, SCHEMA_NAME_PATTERN } from './postgres-store-options.js';
export { CURRENT_SCHEMA_VERSION } from './schema/migrations.js';
