import { CairnError, type ConversationMessage } from '@cairn/core';
import type { NormalizedLoadOptions } from '@cairn/storage';
import type { SchemaTables } from '../schema/schema-tables.js';
import type { Queryable } from '../sql/queryable.js';

/**
 * One conversation's messages in a load window, all in SQL: the seq range, the direction, then the
 * limit (so backward + limit is "the last N"). Each row is one JSON text with its seq inside: one parse.
 */
export async function selectMessages(
  db: Queryable,
  tables: SchemaTables,
  conversationId: string,
  { fromSeq, toSeq, limit, direction }: NormalizedLoadOptions,
): Promise<ConversationMessage[]> {
  const order = direction === 'backward' ? 'DESC' : 'ASC';
  const { rows } = await db.query<{ seq: string; message: string }>(
    `SELECT seq, message FROM ${tables.messages}
      WHERE conversation_id = $1 AND seq BETWEEN $2 AND $3
      ORDER BY seq ${order}
      LIMIT $4`,
    [conversationId, fromSeq, toSeq, limit],
  );
  return rows.map((row) => parseStoredMessage(conversationId, row.seq, row.message));
}

function parseStoredMessage(conversationId: string, seq: string, text: string): ConversationMessage {
  try {
    return JSON.parse(text) as ConversationMessage;
  } catch (error) {
    throw new CairnError(
      'STORE_CORRUPT',
      `Message ${seq} of conversation ${conversationId} is not valid JSON`,
      {
        cause: error,
        details: { conversationId, seq: Number(seq) },
      },
    );
  }
}
