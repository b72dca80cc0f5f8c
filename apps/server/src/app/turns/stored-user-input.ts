import { activeBranch, CairnError, type ConversationStore, type MessageContent } from '@cairn/core';

/**
 * What a regeneration answers again: the user message at `seq` of the conversation as it stands, or
 * its last one. The log is append-only: the message is stored once more, as a branch in its place
 * (`branchFrom: seq`), and the old answer stays stored, off the path.
 */
export async function storedUserInput(
  store: ConversationStore,
  conversationId: string,
  seq?: number,
): Promise<{ content: MessageContent; seq: number }> {
  const messages = await store.load(conversationId).catch((error: unknown) => {
    if (CairnError.is(error, 'STORE_NOT_FOUND')) return [];
    throw error;
  });
  const path = activeBranch(messages);
  const found =
    seq === undefined
      ? path.findLast((message) => message.role === 'user')
      : path.find((message) => message.seq === seq && message.role === 'user');
  if (found?.seq === undefined || found.content === null || found.content === undefined) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      seq === undefined
        ? 'the conversation has no user message to answer again'
        : `seq ${seq} is not a user message of the conversation as it stands`,
      { details: { conversationId, ...(seq === undefined ? {} : { seq }) } },
    );
  }
  return { content: found.content as MessageContent, seq: found.seq };
}
