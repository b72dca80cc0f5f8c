import type { AgentOutput, JsonValue } from '@cairn/core';

/** The converters' clock (the same shape as the Claude Code converter's): the time of events whose input carries none. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const GEMINI_CLI_SOURCE = 'gemini-cli';

// An ISO 8601 date-time with an offset, as `AgentOutput.timestamp` requires.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The line's own `timestamp` when it is a valid ISO time, else the clock's. */
export function timestampOf(line: Record<string, unknown>, now: Clock): string {
  const value = line.timestamp;
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
    ? value
    : now().toISOString();
}

/** Input kept whole because the converter does not understand it. */
export function unknownEvent(raw: JsonValue, timestamp: string): AgentOutput {
  return { type: 'unknown', timestamp, source: GEMINI_CLI_SOURCE, raw };
}

/** A line that is not JSON: reported, not fatal, so the stream goes on. */
export function malformedLineEvent(line: string, timestamp: string): AgentOutput {
  return {
    type: 'error',
    timestamp,
    code: 'LLM_BAD_RESPONSE',
    message: 'Gemini CLI wrote a line that is not JSON',
    retryable: false,
    fatal: false,
    raw: line,
  };
}

/** The fields of `line` the converter does not know, as one `unknown` event (nothing is dropped). */
export function unknownFieldsEvent(
  line: Record<string, unknown>,
  knownFields: ReadonlySet<string>,
  timestamp: string,
): AgentOutput[] {
  const extra: Record<string, JsonValue> = {};
  let found = false;
  for (const [key, value] of Object.entries(line)) {
    if (knownFields.has(key)) continue;
    extra[key] = value as JsonValue;
    found = true;
  }
  if (!found) return [];
  return [
    unknownEvent({ type: typeof line.type === 'string' ? line.type : null, unknownFields: extra }, timestamp),
  ];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-negative integer, or undefined (token counts must be valid `TokenUsage` numbers). */
export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
