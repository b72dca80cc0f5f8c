import type { ConversationMessage } from '@cairn/core';

const MAX_TITLE_LENGTH = 80;

/**
 * The title a conversation list shows: the first user message's text on one line, at most 80
 * characters. Undefined until there is such a message. Every backend derives it the same way.
 */
export function deriveConversationTitle(
  messages: readonly Pick<ConversationMessage, 'role' | 'content'>[],
): string | undefined {
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content !== 'string') continue;
    const line = message.content.replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    const chars = Array.from(line);
    return chars.length <= MAX_TITLE_LENGTH ? line : `${chars.slice(0, MAX_TITLE_LENGTH - 1).join('')}…`;
  }
  return undefined;
}
