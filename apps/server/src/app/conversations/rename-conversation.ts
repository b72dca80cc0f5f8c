import { randomUUID } from 'node:crypto';
import {
  CairnError,
  type ConversationStore,
  type ConversationSummary,
  definedFields,
  titleRecord,
} from '@cairn/core';

// A turn appending meanwhile moves the last seq on: the rename reads it again, a few times.
const MAX_ATTEMPTS = 5;

/**
 * Appends a title record after the conversation's last message and returns its seq; undefined when
 * the conversation has no messages. The append names the seq it read (`expectedSeq`), so a rename
 * racing a delete never creates a conversation holding only a title.
 */
export async function appendTitleRecord(
  store: ConversationStore,
  conversationId: string,
  title: string,
): Promise<number | undefined> {
  for (let attempt = 1; ; attempt++) {
    const [last] = await store.load(conversationId, { direction: 'backward', limit: 1 });
    if (last === undefined) return undefined;
    const record = titleRecord({ id: `title-${randomUUID()}`, createdAt: new Date().toISOString(), title });
    try {
      const { seqs } = await store.append(conversationId, [record], { expectedSeq: last.seq ?? 0 });
      return seqs[0];
    } catch (error) {
      if (!CairnError.is(error) || error.code !== 'STORE_CONFLICT' || attempt === MAX_ATTEMPTS) throw error;
    }
  }
}

/** The conversation's listing row: the store has no lookup by id, but a row just updated is on the first page. */
export async function findConversationSummary(
  store: ConversationStore,
  conversationId: string,
): Promise<ConversationSummary | undefined> {
  let cursor: string | undefined;
  do {
    const page = await store.listConversations({ limit: 100, ...definedFields({ cursor }) });
    const found = page.conversations.find((summary) => summary.id === conversationId);
    if (found !== undefined) return found;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return undefined;
}
