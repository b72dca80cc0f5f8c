// Support for the tests of a converter on its CLI's real recorded streams (fixtures/real/<cli>).
import type { AgentOutput, AgentOutputOf } from '@cairn/core';
import { readRealFixture } from './real-fixtures.js';

interface LineConverter {
  push(line: string): AgentOutput[];
  end(): AgentOutput[];
}

/** The clock of the converters: the time of events whose line carries none. */
export const REAL_STREAMS_NOW = new Date('2026-11-26T12:00:00.000Z');

/**
 * For one CLI: `real(name)`, its recorded stream `fixtures/real/<cli>/<name>.jsonl`, and
 * `convert(text)`, the events of a whole text through a fresh converter (`end()` included) whose
 * clock says `REAL_STREAMS_NOW`.
 */
export function realStreams(cli: string, createConverter: (options: { now: () => Date }) => LineConverter) {
  return {
    real: (name: string): string => readRealFixture(`${cli}/${name}.jsonl`),
    convert(text: string): AgentOutput[] {
      const converter = createConverter({ now: () => REAL_STREAMS_NOW });
      return [...text.split('\n').flatMap((line) => converter.push(line)), ...converter.end()];
    },
  };
}

/**
 * The JSON lines of a recorded stream whose fields equal `match`, typed as the test reads them: where
 * a value differs from one recording to the next (an id, a time, a jittered delay), a test reads the
 * expected value from the line, so a re-recording needs no edit.
 */
export function recordedLines<T extends object>(text: string, match: Record<string, unknown>): T[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => Object.entries(match).every(([key, value]) => line[key] === value)) as T[];
}

/** The one recorded line whose fields equal `match` (it throws unless exactly one line does). */
export function recordedLine<T extends object>(text: string, match: Record<string, unknown>): T {
  const lines = recordedLines<T>(text, match);
  const [line] = lines;
  if (lines.length !== 1 || line === undefined) {
    throw new Error(`expected one line with ${JSON.stringify(match)}, found ${lines.length}`);
  }
  return line;
}

/** The events of one type, typed as such. */
export const ofType = <T extends AgentOutput['type']>(events: AgentOutput[], type: T): AgentOutputOf<T>[] =>
  events.filter((event): event is AgentOutputOf<T> => event.type === type);

/**
 * What the stand-in's 400 answer (scenario `err400`) becomes with every CLI: one fatal error with
 * the provider's message, never the JSON body around it.
 */
export const STAND_IN_400_ERROR = {
  code: 'LLM_BAD_REQUEST',
  message: 'mock: this request is invalid',
  retryable: false,
  fatal: true,
} as const;
