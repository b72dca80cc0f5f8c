import {
  CairnError,
  type ConversationMessage,
  ConversationMessageSchema,
  definedFields,
  isValidConversationMessage,
  validationIssues,
} from '@cairn/core';

function nameOf(value: unknown, index: number): string {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : `at index ${index}`;
}

/**
 * Throws unless `log` is a list of valid conversation messages (`INVALID_MESSAGE`, naming the
 * message and its first bad field) whose `seq`s, where set, strictly increase (`INVALID_ARGUMENT`).
 * Messages without a `seq` (not stored yet) may sit anywhere.
 */
export function assertValidLog(log: unknown): asserts log is ConversationMessage[] {
  if (!Array.isArray(log))
    throw new CairnError('INVALID_ARGUMENT', 'messages must be an array of log messages');
  let lastSeq = 0;
  for (let index = 0; index < log.length; index++) {
    const message: unknown = log[index];
    if (!isValidConversationMessage(message)) {
      const name = nameOf(message, index);
      const [first] = validationIssues(ConversationMessageSchema, message);
      const where = first === undefined ? '' : ` at ${first.path}: ${first.message}`;
      throw new CairnError('INVALID_MESSAGE', `Invalid conversation message ${name}${where}`, {
        details: { messageId: name, index, ...definedFields({ issue: first }) },
      });
    }
    const { seq } = message;
    if (seq === undefined) continue;
    if (seq <= lastSeq) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `Message ${message.id} has seq ${seq} after seq ${lastSeq}: the log must be in seq order`,
        { details: { messageId: message.id, index, seq, previousSeq: lastSeq } },
      );
    }
    lastSeq = seq;
  }
}
