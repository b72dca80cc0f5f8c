import { type ConversationMessage, contentParts, isTextPart } from '@cairn/core';

/**
 * Whether a message's text is searched: user and assistant messages only. Tool output, run state
 * and other records are machine text (JSON, file contents) that would match almost anything.
 */
export function isSearchedMessage(message: Pick<ConversationMessage, 'role'>): boolean {
  return message.role === 'user' || message.role === 'assistant';
}

/** The lower-cased form a search compares: both sides are folded alike. */
export function foldSearchText(text: string): string {
  return text.toLowerCase();
}

/**
 * Whether the message's text (a string `content`, or any one text part) contains `folded` (a
 * needle already passed through `foldSearchText`). Parts are matched one by one, as the SQL stores do.
 */
export function messageMatchesSearch(message: ConversationMessage, folded: string): boolean {
  if (!isSearchedMessage(message)) return false;
  return contentParts(message.content).some(
    (part) => isTextPart(part) && foldSearchText(part.text).includes(folded),
  );
}

/** Whether a conversation, by its title or its messages, matches `folded` (see `messageMatchesSearch`). */
export function conversationMatchesSearch(
  title: string | undefined,
  messages: readonly ConversationMessage[],
  folded: string,
): boolean {
  return (
    (title !== undefined && foldSearchText(title).includes(folded)) ||
    messages.some((message) => messageMatchesSearch(message, folded))
  );
}

/**
 * A SQL `LIKE` pattern matching text that contains `search` literally: its `%`, `_` and `\` are
 * escaped with `\` (use `ESCAPE '\'`).
 */
export function likeContainsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
