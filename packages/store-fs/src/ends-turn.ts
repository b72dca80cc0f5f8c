import { type ConversationMessage, isToolCallMessage } from '@cairn/core';
import type { PreparedMessage } from '@cairn/storage';

/** The end of a model turn (durability 'turn' syncs there): a final assistant answer or a persisted error. */
export function endsTurn(messages: readonly PreparedMessage[]): boolean {
  const last = messages.at(-1);
  if (last === undefined) return false;
  return (
    last.partType === 'error' ||
    (last.role === 'assistant' && !isToolCallMessage(last as ConversationMessage))
  );
}
