import {
  activeBranch,
  type ConversationMessage,
  type ConversationStore,
  isIncludedInContext,
  isToolCallMessage,
} from '@cairn/core';

/**
 * Whether the model owes the conversation an answer: the last message on its active branch that a
 * model reads (records and system notes aside) is the user's, a tool result, or calls tools.
 */
export function hasSomethingToAnswer(log: readonly ConversationMessage[]): boolean {
  const path = activeBranch(log);
  for (let index = path.length - 1; index >= 0; index--) {
    const message = path[index] as ConversationMessage;
    if (message.role === 'system' || !isIncludedInContext(message)) continue;
    return message.role === 'user' || message.role === 'tool' || isToolCallMessage(message);
  }
  return false;
}

/** `hasSomethingToAnswer` over the conversation's last 50 messages, as stored. */
export async function owesAnswer(store: ConversationStore, conversationId: string): Promise<boolean> {
  const tail = await store.load(conversationId, { direction: 'backward', limit: 50 });
  return hasSomethingToAnswer(tail.reverse());
}
