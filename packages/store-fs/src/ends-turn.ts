import { type ConversationMessage, isLedgerRecord, isToolCallMessage } from '@cairn/core';
import type { PreparedMessage } from '@cairn/storage';

/**
 * Whether durability 'turn' syncs this append: the end of a model turn (a final assistant answer or
 * a persisted error), or a ledger record (an approval request or decision, a tool intent) — acted on
 * the moment it is stored, so a power cut must not take back a decision or an intent whose tool ran.
 */
export function endsTurn(messages: readonly PreparedMessage[]): boolean {
  const last = messages.at(-1);
  if (last === undefined) return false;
  if (messages.some((message) => isLedgerRecord(message))) return true;
  return (
    last.partType === 'error' ||
    (last.role === 'assistant' && !isToolCallMessage(last as ConversationMessage))
  );
}
