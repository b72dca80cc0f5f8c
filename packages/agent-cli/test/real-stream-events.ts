// Support for the tests of a converter on its CLI's real recorded streams (fixtures/real/<cli>).
import type { AgentOutput, AgentOutputOf } from '@cairn/core';
import { readRealFixture } from './real-fixtures.js';

interface LineConverter {
  push(line: string): AgentOutput[];
  end(): AgentOutput[];
}

/**
 * For one CLI: `real(name)`, its recorded stream `fixtures/real/<cli>/<name>.jsonl`, and
 * `convert(text)`, the events of a whole text through a fresh converter (`end()` included).
 */
export function realStreams(cli: string, createConverter: () => LineConverter) {
  return {
    real: (name: string): string => readRealFixture(`${cli}/${name}.jsonl`),
    convert(text: string): AgentOutput[] {
      const converter = createConverter();
      return [...text.split('\n').flatMap((line) => converter.push(line)), ...converter.end()];
    },
  };
}

/** The events of one type, typed as such. */
export const ofType = <T extends AgentOutput['type']>(events: AgentOutput[], type: T): AgentOutputOf<T>[] =>
  events.filter((event): event is AgentOutputOf<T> => event.type === type);
