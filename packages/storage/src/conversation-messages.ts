import type { AppendOptions, ConversationMessage, ConversationStore, LoadOptions } from '@cairn/core';

/**
 * Appends one message to any store and returns it as stored: `seq` assigned, a large tool output
 * offloaded.
 */
export async function appendConversationMessage(
  store: ConversationStore,
  conversationId: string,
  message: ConversationMessage,
  options?: AppendOptions,
): Promise<ConversationMessage> {
  const { messages } = await store.append(conversationId, [message], options);
  const [stored] = messages;
  if (stored === undefined) throw new Error('store.append returned no message for a one-message append');
  return stored;
}

/** The whole conversation (or a window of it), oldest first. */
export function loadConversationMessages(
  store: ConversationStore,
  conversationId: string,
  options?: LoadOptions,
): Promise<ConversationMessage[]> {
  return store.load(conversationId, options);
}
