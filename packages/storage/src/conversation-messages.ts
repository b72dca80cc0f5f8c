import type { AppendOptions, ConversationMessage, ConversationStore, LoadOptions } from '@cairn/core';

/**
 * The seed's `appendConversationMessage(projectRoot, conversationId, message)`, with the store in
 * place of the project root (a file store is opened per project). Returns the message as stored:
 * `seq` assigned, a large tool output offloaded.
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

/** The seed's `loadConversationMessages`: the whole conversation (or a window of it), oldest first. */
export function loadConversationMessages(
  store: ConversationStore,
  conversationId: string,
  options?: LoadOptions,
): Promise<ConversationMessage[]> {
  return store.load(conversationId, options);
}
