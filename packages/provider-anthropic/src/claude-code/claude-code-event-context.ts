import type { AgentOutput, AgentOutputOf, JsonValue } from '@cairn/core';

/** What every event converted from one Claude Code line shares. */
export interface ClaudeCodeEventContext {
  timestamp: string;
  parentToolUseId?: string;
}

/** `context` and the message the events belong to, in that order (the same as spreading both). */
export function withMessageId(
  context: ClaudeCodeEventContext,
  messageId: string | undefined,
): ClaudeCodeEventContext & { messageId?: string } {
  if (messageId === undefined) return context;
  // Built field by field: spreading the context shows in profiles of long sessions.
  return context.parentToolUseId === undefined
    ? { timestamp: context.timestamp, messageId }
    : { timestamp: context.timestamp, parentToolUseId: context.parentToolUseId, messageId };
}

/** What events of one message share: the line's context and the message id. */
export type EventBase = ClaudeCodeEventContext & { messageId?: string };

/**
 * A new event of `type` with `base`'s fields, the same as `{ type, ...base }` (the base holds only
 * the fields it has a value for), for the caller to add the rest of its fields to.
 */
export function eventOf<T extends AgentOutput['type']>(type: T, base: EventBase): AgentOutputOf<T> {
  const event: { type: T } & EventBase = { type, timestamp: base.timestamp };
  if (base.parentToolUseId !== undefined) event.parentToolUseId = base.parentToolUseId;
  if (base.messageId !== undefined) event.messageId = base.messageId;
  return event as AgentOutputOf<T>;
}

/** The source name of `unknown` events from Claude Code output. */
export const CLAUDE_CODE_SOURCE = 'claude-code';

export type JsonObject = { [key: string]: JsonValue };

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringField = (object: JsonObject, key: string): string | undefined => {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
};

export const numberField = (object: JsonObject, key: string): number | undefined => {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

// A timestamp the CLI reported (user lines carry one) wins over the converter's clock.
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// The last clock reading's ISO text: lines come many to a millisecond, and formatting a date
// for each one shows in profiles.
let lastTime = Number.NaN;
let lastIsoTime = '';

/** `now()` as an ISO string; the system clock when `now` is undefined (no Date made per line then). */
export function isoNow(now: (() => Date) | undefined): string {
  if (now === undefined) {
    const time = Date.now();
    if (time !== lastTime) {
      lastIsoTime = new Date(time).toISOString();
      lastTime = time;
    }
    return lastIsoTime;
  }
  const date = now();
  const time = date.getTime();
  if (time !== lastTime) {
    lastIsoTime = date.toISOString();
    lastTime = time;
  }
  return lastIsoTime;
}

/** The context of `line`: its own timestamp when valid, else `now()`, and its sub-agent parent. */
export function eventContextOf(line: JsonObject, now: (() => Date) | undefined): ClaudeCodeEventContext {
  const reported = stringField(line, 'timestamp');
  const timestamp = reported !== undefined && ISO_DATETIME.test(reported) ? reported : isoNow(now);
  const parentToolUseId = stringField(line, 'parent_tool_use_id');
  return parentToolUseId === undefined ? { timestamp } : { timestamp, parentToolUseId };
}
