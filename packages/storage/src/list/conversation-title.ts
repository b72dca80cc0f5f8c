import { type ConversationMessage, isTitleRecord, titleRecordText } from '@cairn/core';

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

/** The title an append gives: `replaces` when it holds a title record (a rename), else derived. */
export interface AppendedTitle {
  title: string | undefined;
  /** True: `title` replaces whatever title the conversation had. False: it applies only to an untitled one. */
  replaces: boolean;
}

/** What a title is read from: a message's role, content and part type. */
export type TitledMessage = Pick<ConversationMessage, 'role' | 'content' | 'partType'>;

/** The title the last title record among `messages` sets, if any holds one. */
function latestRecordedTitle(messages: readonly TitledMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as TitledMessage;
    const title = isTitleRecord(message) ? titleRecordText(message) : undefined;
    if (title !== undefined) return title;
  }
  return undefined;
}

/** What the messages of one append do to the conversation's title. Every backend folds titles this way. */
export function titleOfAppend(messages: readonly TitledMessage[]): AppendedTitle {
  const recorded = latestRecordedTitle(messages);
  return recorded !== undefined
    ? { title: recorded, replaces: true }
    : { title: deriveConversationTitle(messages), replaces: false };
}

/** The conversation's title after an append, from its title before (the stores that fold in process). */
export function nextConversationTitle(
  previous: string | undefined,
  messages: readonly TitledMessage[],
): string | undefined {
  return latestRecordedTitle(messages) ?? previous ?? deriveConversationTitle(messages);
}
