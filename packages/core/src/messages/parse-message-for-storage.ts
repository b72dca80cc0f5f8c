import { copyPlainJson } from '../validation/plain-json-copy.js';
import { assertValid } from '../validation/validate.js';
import { type ConversationMessage, ConversationMessageSchema } from './conversation-message.js';
import { conversationMessageFastCheck } from './conversation-message-fast-check.js';

/**
 * How deep a stored message may nest: the message is level 1, each object or array inside it one
 * more. Deeper values overflow JSON encoders and parsers (V8's stack, .NET's default limit of 64).
 */
export const MAX_MESSAGE_DEPTH = 64;

// The copy is plain JSON, so the fast check also takes the JSON fields tool and assistant
// messages carry (a structured result, reasoning, provider data) without a schema walk.
const passesFastCheck = conversationMessageFastCheck(Object.keys(ConversationMessageSchema.shape), {
  plainJson: true,
});

/**
 * What a store writes for `value`: a plain JSON copy, validated. Each property is read once and
 * what JSON would change or cannot hold (`toJSON`, a Date or class instance, a BigInt, NaN, a hole,
 * a cycle, nesting deeper than `MAX_MESSAGE_DEPTH`) is refused with `INVALID_MESSAGE` naming where,
 * so the message validated is the one stored and the one a load returns. Fields a newer version
 * wrote are kept; `undefined` fields are left out, as JSON leaves them.
 */
export function parseMessageForStorage(value: unknown): ConversationMessage {
  const plain = copyPlainJson(value, MAX_MESSAGE_DEPTH, 'conversation message');
  if (passesFastCheck(plain)) return plain as ConversationMessage;
  return assertValid(ConversationMessageSchema, plain, 'conversation message');
}
