import { copyPlainJson } from '../validation/plain-json-copy.js';
import { type ConversationMessage, parseConversationMessage } from './conversation-message.js';

/**
 * How deep a stored message may nest: the message is level 1, each object or array inside it one
 * more. Deeper values overflow JSON encoders and parsers (V8's stack, .NET's default limit of 64).
 */
export const MAX_MESSAGE_DEPTH = 64;

/**
 * What a store writes for `value`: a plain JSON copy, validated. Each property is read once and
 * what JSON would change or cannot hold (`toJSON`, a Date or class instance, a BigInt, NaN, a hole,
 * a cycle, nesting deeper than `MAX_MESSAGE_DEPTH`) is refused with `INVALID_MESSAGE` naming where,
 * so the message validated is the one stored and the one a load returns. Fields a newer version
 * wrote are kept; `undefined` fields are left out, as JSON leaves them.
 */
export function parseMessageForStorage(value: unknown): ConversationMessage {
  return parseConversationMessage(copyPlainJson(value, MAX_MESSAGE_DEPTH, 'conversation message'));
}
