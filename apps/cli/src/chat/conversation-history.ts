import type { ConversationMessage, ConversationStore } from '@cairn/core';
import { assertSafeId } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { cliFailure } from '../cli-error.js';

/** A stored conversation's log; an unknown id fails with the command that lists the real ones. */
export async function loadExistingConversation(
  store: ConversationStore,
  conversationId: string,
  listCommand = 'cairn conversations list',
): Promise<ConversationMessage[]> {
  assertSafeId('conversation id', conversationId);
  const log = await store.load(conversationId);
  if (log.length === 0) {
    throw cliFailure(
      'STORE_NOT_FOUND',
      `there is no conversation "${conversationId}"`,
      `\`${listCommand}\` shows the ids`,
    );
  }
  return log;
}

/** The display view of a log (tool calls merged with their results), as every command shows it. */
export function displayView(log: readonly ConversationMessage[], cwd?: string): ConversationMessage[] {
  return toDisplayMessages(log, cwd === undefined ? {} : { cwd });
}
