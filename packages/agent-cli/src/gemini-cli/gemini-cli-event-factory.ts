import type { AgentOutput } from '@cairn/core';
import { type Clock, cliLineEvents } from '../cli-line-events.js';

export { type Clock, countOf, isRecord, systemClock } from '../cli-line-events.js';

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

const geminiCliLineEvents = cliLineEvents({ source: GEMINI_CLI_SOURCE, cliName: 'Gemini CLI' });

export const { malformedLineEvent, neverThrowing, unknownEvent } = geminiCliLineEvents;

/** The fields of `line` the converter does not know, as one `unknown` event named by its `type`. */
export function unknownFieldsEvent(
  line: Record<string, unknown>,
  knownFields: ReadonlySet<string>,
  timestamp: string,
): AgentOutput[] {
  const type = typeof line.type === 'string' ? line.type : null;
  return geminiCliLineEvents.unknownFieldsEvent(type, line, knownFields, timestamp);
}
