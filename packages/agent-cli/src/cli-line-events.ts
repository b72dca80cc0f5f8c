import type { AgentOutput, JsonValue } from '@cairn/core';

/** A converter's clock: the time of events whose line carries none. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-negative integer, or undefined (token counts must be valid `TokenUsage` numbers). */
export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** The events every line converter makes alike, worded for its CLI (see `cliLineEvents`). */
export interface CliLineEvents {
  /** Input kept whole because the converter does not understand it. */
  unknownEvent(raw: JsonValue, timestamp: string): AgentOutput;
  /** A line that is not JSON: reported, not fatal, so the stream goes on. */
  malformedLineEvent(line: string, timestamp: string): AgentOutput;
  /**
   * The fields of `object` the converter does not know, as one `unknown` event
   * (`raw: { type, unknownFields }`), so data a newer CLI adds is kept. None when all are known.
   */
  unknownFieldsEvent(
    type: string | null,
    object: Record<string, unknown>,
    knownFields: ReadonlySet<string>,
    timestamp: string,
  ): AgentOutput[];
  /**
   * `convert` made safe for a stream: a converter bug becomes an error event for its line instead of
   * taking the agent's stream down with it.
   */
  neverThrowing(convert: (line: string) => AgentOutput[], now: Clock): (line: string) => AgentOutput[];
}

/**
 * The line events of one CLI's converter: `source` names it on `unknown` events, `cliName` in
 * error messages ("Codex CLI wrote a line that is not JSON").
 */
export function cliLineEvents({ source, cliName }: { source: string; cliName: string }): CliLineEvents {
  const unknownEvent = (raw: JsonValue, timestamp: string): AgentOutput => ({
    type: 'unknown',
    timestamp,
    source,
    raw,
  });
  const malformedLineEvent = (line: string, timestamp: string): AgentOutput => ({
    type: 'error',
    timestamp,
    code: 'LLM_BAD_RESPONSE',
    message: `${cliName} wrote a line that is not JSON`,
    retryable: false,
    fatal: false,
    raw: line,
  });
  return {
    unknownEvent,
    malformedLineEvent,
    unknownFieldsEvent(type, object, knownFields, timestamp) {
      const extra: Record<string, JsonValue> = {};
      let found = false;
      for (const [key, value] of Object.entries(object)) {
        if (knownFields.has(key)) continue;
        extra[key] = value as JsonValue;
        found = true;
      }
      return found ? [unknownEvent({ type, unknownFields: extra }, timestamp)] : [];
    },
    neverThrowing: (convert, now) => (line) => {
      try {
        return convert(line);
      } catch (error) {
        const failure = malformedLineEvent(line, now().toISOString());
        return [{ ...failure, message: `${cliName} line could not be converted: ${String(error)}` }];
      }
    },
  };
}
