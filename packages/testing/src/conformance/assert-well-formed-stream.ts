import { type AgentOutput, isAgentOutput } from '@cairn/core';
import { expect } from 'vitest';

const parseOrRaw = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * The stream rules of `ModelStream` that every case checks: each event is a valid `AgentOutput`;
 * every delta's block is closed by its whole-block event repeating the concatenated deltas, and
 * no delta follows it; exactly one `finish`, last; nothing but `finish` after a fatal error; a
 * tool call left open is only allowed when the call failed (it must then be dropped, not closed).
 */
export function assertWellFormedStream(events: AgentOutput[]): void {
  for (const event of events) {
    expect(isAgentOutput(event), `not a valid AgentOutput event: ${JSON.stringify(event)}`).toBe(true);
  }
  expect(
    events.filter((event) => event.type === 'finish'),
    'exactly one finish event',
  ).toHaveLength(1);
  expect(events.at(-1)?.type, 'finish is the last event').toBe('finish');
  const fatal = events.findIndex((event) => event.type === 'error' && event.fatal);
  if (fatal !== -1) expect(events.length, 'only finish follows a fatal error').toBe(fatal + 2);

  const open = new Map<string, string>();
  const closed = new Set<string>();
  const delta = (key: string, text: string) => {
    expect(closed.has(key), `a delta after its block ended (${key})`).toBe(false);
    open.set(key, (open.get(key) ?? '') + text);
  };
  for (const event of events) {
    switch (event.type) {
      case 'text_delta':
      case 'reasoning_delta':
        delta(`${event.type === 'text_delta' ? 'text' : 'reasoning'}:${event.id}`, event.delta);
        break;
      case 'tool_input_delta':
        delta(`tool:${event.id}`, event.delta);
        break;
      case 'text':
      case 'reasoning': {
        const key = `${event.type}:${event.id}`;
        if (open.has(key))
          expect(event.text, `the ${event.type} event repeats its deltas`).toBe(open.get(key));
        open.delete(key);
        closed.add(key);
        break;
      }
      case 'tool_use': {
        const key = `tool:${event.id}`;
        const streamed = open.get(key);
        if (streamed !== undefined)
          expect(event.input, 'tool_use input = its parsed deltas').toEqual(parseOrRaw(streamed));
        open.delete(key);
        closed.add(key);
        break;
      }
      default:
        break;
    }
  }
  const finish = events.at(-1);
  const failed = finish?.type === 'finish' && (finish.reason === 'error' || finish.reason === 'aborted');
  const unclosed = [...open.keys()].filter((key) => !(failed && key.startsWith('tool:')));
  expect(unclosed, 'every started text/reasoning block (and, on success, tool call) ended').toEqual([]);
}
