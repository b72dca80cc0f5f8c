import { contentText } from '../content/content-text.js';
import { CairnError } from '../errors/cairn-error.js';
import type { ConversationMessage } from './conversation-message.js';

/** `partType` of a conversation's title record (a rename). */
export const TITLE_PART_TYPE = 'title';

/** The longest title a rename may set, in characters (code points). */
export const MAX_CONVERSATION_TITLE_LENGTH = 200;

/**
 * A title a person typed, trimmed; `INVALID_ARGUMENT` unless it is one line of 1 to
 * `MAX_CONVERSATION_TITLE_LENGTH` characters.
 */
export function normalizeConversationTitle(title: string): string {
  const trimmed = title.trim();
  const length = Array.from(trimmed).length;
  if (length === 0 || length > MAX_CONVERSATION_TITLE_LENGTH) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `A title is 1 to ${MAX_CONVERSATION_TITLE_LENGTH} characters once trimmed, got ${length}`,
      { details: { length } },
    );
  }
  if (/[\r\n\u2028\u2029]/.test(trimmed)) {
    throw new CairnError('INVALID_ARGUMENT', 'A title is one line: it may not hold a line break');
  }
  return trimmed;
}

/**
 * The log record of a rename: a hidden `system` message whose `content` is the title. Kept in the
 * log (so every backend stores it alike and `/events` followers see it), never sent to a model
 * (`title` is a display-only part type, and `includeInContext` is false besides).
 */
export function titleRecord(fields: { id: string; createdAt: string; title: string }): ConversationMessage {
  return {
    id: fields.id,
    role: 'system',
    createdAt: fields.createdAt,
    content: normalizeConversationTitle(fields.title),
    partType: TITLE_PART_TYPE,
    includeInContext: false,
  };
}

/** Whether `message` is a title record. */
export function isTitleRecord(message: Pick<ConversationMessage, 'role' | 'partType'>): boolean {
  return message.role === 'system' && message.partType === TITLE_PART_TYPE;
}

/** The title a title record sets (its text, trimmed); undefined when it holds none. */
export function titleRecordText(message: Pick<ConversationMessage, 'content'>): string | undefined {
  const title = contentText(message.content).trim();
  return title === '' ? undefined : title;
}
