import type { AgentOutput, AgentOutputOf, CairnErrorCode, JsonValue } from '@cairn/core';

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

/** A `status` event: `{ type: 'status', ...context, status, message }`, built without spreading. */
export function statusEvent(context: ClaudeCodeEventContext, status: string, message: string): AgentOutput {
  const event = eventOf('status', context);
  event.status = status;
  event.message = message;
  return event;
}

/**
 * An `error` event: `{ type: 'error', ...base, code, message, retryable, fatal }`, for the caller to
 * add `raw` and the rest. Built field by field: a spread before more fields is slow in V8.
 */
export function errorEventOf(
  base: EventBase,
  code: CairnErrorCode,
  message: string,
  retryable: boolean,
  fatal: boolean,
): AgentOutputOf<'error'> {
  const event = eventOf('error', base);
  event.code = code;
  event.message = message;
  event.retryable = retryable;
  event.fatal = fatal;
  return event;
}

/** The source name of `unknown` events from Claude Code output. */
export const CLAUDE_CODE_SOURCE = 'claude-code';

export type JsonObject = { [key: string]: JsonValue };

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Values read at the call site (`stringOf(line.session_id)`) rather than by a shared helper taking
// the key: a helper's one load site sees every kind of line and key, and such megamorphic loads
// showed in profiles; a load of its own at each site sees one or a few shapes.
export const stringOf = (value: JsonValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const numberOf = (value: JsonValue | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const isDigit = (code: number) => code >= 48 && code <= 57;

// `text[from]` and `text[from + 1]` are digits.
const twoDigits = (text: string, from: number) =>
  isDigit(text.charCodeAt(from)) && isDigit(text.charCodeAt(from + 1));

/**
 * An ISO 8601 date-time with seconds and a zone: `dddd-dd-ddTdd:dd:dd(.d+)?(Z|±dd:dd)`. Checked by
 * hand, position by position: one runs per user line, and a regex costs several times more here.
 */
export function isIsoDateTime(text: string): boolean {
  if (
    text.length < 20 ||
    !twoDigits(text, 0) ||
    !twoDigits(text, 2) ||
    text.charCodeAt(4) !== 45 /* - */ ||
    !twoDigits(text, 5) ||
    text.charCodeAt(7) !== 45 /* - */ ||
    !twoDigits(text, 8) ||
    text.charCodeAt(10) !== 84 /* T */ ||
    !twoDigits(text, 11) ||
    text.charCodeAt(13) !== 58 /* : */ ||
    !twoDigits(text, 14) ||
    text.charCodeAt(16) !== 58 /* : */ ||
    !twoDigits(text, 17)
  )
    return false;
  let at = 19;
  if (text.charCodeAt(at) === 46 /* . */) {
    at++;
    const digitsFrom = at;
    while (isDigit(text.charCodeAt(at))) at++;
    if (at === digitsFrom) return false;
  }
  if (text.length === at + 1) return text.charCodeAt(at) === 90 /* Z */;
  const sign = text.charCodeAt(at);
  return (
    text.length === at + 6 &&
    (sign === 43 || sign === 45) &&
    twoDigits(text, at + 1) &&
    text.charCodeAt(at + 3) === 58 /* : */ &&
    twoDigits(text, at + 4)
  );
}

const MS_PER_DAY = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, value) => String(value).padStart(2, '0'));
const threeDigits = (value: number) => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : `${value}`);

// The UTC day of the last time `isoTime` formatted, and its ISO text up to and with the `T`.
let dayStart = Number.NaN;
let dayText = '';

/**
 * `new Date(time).toISOString()` for an integer `time` in Date's range. The day's text is kept and
 * the time of day written by hand: Date's own formatting costs about a microsecond, which showed
 * in profiles of task updates.
 */
export function isoTime(time: number): string {
  let rest = time - dayStart;
  if (!(rest >= 0 && rest < MS_PER_DAY)) {
    const text = new Date(time).toISOString();
    dayStart = time - (((time % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY);
    dayText = text.slice(0, text.indexOf('T') + 1);
    return text;
  }
  const milliseconds = rest % 1000;
  rest = (rest - milliseconds) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${dayText}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${threeDigits(milliseconds)}Z`;
}

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

/**
 * The context of a line from its `timestamp` and `parent_tool_use_id`: the timestamp when valid,
 * else `now()`, and the sub-agent parent. The caller reads the fields, so each kind of line reads
 * them at a site of its own: one site reading every kind of line is megamorphic, slow in V8.
 */
export function contextOf(
  reported: JsonValue | undefined,
  parentToolUseId: JsonValue | undefined,
  now: (() => Date) | undefined,
): ClaudeCodeEventContext {
  // A timestamp the CLI reported (user lines carry one) wins over the converter's clock.
  const timestamp = typeof reported === 'string' && isIsoDateTime(reported) ? reported : isoNow(now);
  return typeof parentToolUseId === 'string' ? { timestamp, parentToolUseId } : { timestamp };
}

/** The context of `line`: its own timestamp when valid, else `now()`, and its sub-agent parent. */
export const eventContextOf = (line: JsonObject, now: (() => Date) | undefined): ClaudeCodeEventContext =>
  contextOf(line.timestamp, line.parent_tool_use_id, now);
