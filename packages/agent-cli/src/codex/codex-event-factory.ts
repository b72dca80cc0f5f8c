import type { AgentOutput, JsonValue } from '@cairn/core';

/** The converter's clock: Codex lines carry no time, so every event takes the clock's. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** The source name of `unknown` events from Codex CLI output. */
export const CODEX_SOURCE = 'codex';

export type Line = Record<string, unknown>;

export function isRecord(value: unknown): value is Line {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** A non-negative integer, or undefined (token counts must be valid `TokenUsage` numbers). */
export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Input kept whole because the converter does not understand it. */
export function unknownEvent(raw: unknown, timestamp: string): AgentOutput {
  return { type: 'unknown', timestamp, source: CODEX_SOURCE, raw: raw as JsonValue };
}

/** A line that is not JSON: reported, not fatal, so the stream goes on. */
export function malformedLineEvent(line: string, timestamp: string): AgentOutput {
  return {
    type: 'error',
    timestamp,
    code: 'LLM_BAD_RESPONSE',
    message: 'Codex CLI wrote a line that is not JSON',
    retryable: false,
    fatal: false,
    raw: line,
  };
}

/**
 * The fields of `object` the converter does not know, as one `unknown` event
 * (`raw: { type, unknownFields }`), so data a newer CLI adds is kept. None when all are known.
 */
export function unknownFieldsEvent(
  type: string,
  object: Line,
  knownFields: ReadonlySet<string>,
  timestamp: string,
): AgentOutput[] {
  const extra: Record<string, JsonValue> = {};
  let found = false;
  for (const [key, value] of Object.entries(object)) {
    if (knownFields.has(key)) continue;
    extra[key] = value as JsonValue;
    found = true;
  }
  return found ? [unknownEvent({ type, unknownFields: extra }, timestamp)] : [];
}
