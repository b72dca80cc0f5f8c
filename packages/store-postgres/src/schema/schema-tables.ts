import { escapeIdentifier } from 'pg';

/** The store's tables in one schema, as quoted, schema-qualified names ready to splice into SQL. */
export interface SchemaTables {
  schema: string;
  /** The quoted schema name. */
  quotedSchema: string;
  schemaVersion: string;
  conversations: string;
  messages: string;
  appends: string;
  messageIds: string;
  blobs: string;
  leases: string;
}

/** `schema` must already be checked (`SCHEMA_NAME_PATTERN`); it is quoted as well. */
export function schemaTables(schema: string): SchemaTables {
  const quotedSchema = escapeIdentifier(schema);
  const table = (name: string) => `${quotedSchema}.${escapeIdentifier(name)}`;
  return {
    schema,
    quotedSchema,
    schemaVersion: table('cairn_schema_version'),
    conversations: table('cairn_conversations'),
    messages: table('cairn_messages'),
    appends: table('cairn_appends'),
    messageIds: table('cairn_message_ids'),
    blobs: table('cairn_blobs'),
    leases: table('cairn_leases'),
  };
}

/**
 * The text whose 64-bit hash (`hashtextextended`) is the advisory lock key of one conversation. The
 * schema is part of it so that stores in different schemas of one database do not wait for each other.
 */
export function conversationLockName(tables: SchemaTables, conversationId: string): string {
  return `${tables.schema}.${conversationId}`;
}
