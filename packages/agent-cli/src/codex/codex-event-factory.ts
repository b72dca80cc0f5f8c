import type { AgentOutput, JsonValue } from '@cairn/core';
import { cliLineEvents } from '../cli-line-events.js';

// Codex lines carry no time: every event takes the converter's clock.
export { type Clock, countOf, isRecord, systemClock } from '../cli-line-events.js';

/** The source name of `unknown` events from Codex CLI output. */
export const CODEX_SOURCE = 'codex';

export type Line = Record<string, unknown>;

export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

const codexLineEvents = cliLineEvents({ source: CODEX_SOURCE, cliName: 'Codex CLI' });

export const { malformedLineEvent, neverThrowing, unknownFieldsEvent } = codexLineEvents;

/** Input kept whole because the converter does not understand it (parsed JSON, so a `JsonValue`). */
export function unknownEvent(raw: unknown, timestamp: string): AgentOutput {
  return codexLineEvents.unknownEvent(raw as JsonValue, timestamp);
}
