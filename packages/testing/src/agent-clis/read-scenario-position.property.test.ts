import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readScenarioPosition } from './read-scenario-position.js';

// A conversation after the marker: k model turns, each followed by tool results (user messages
// without text), in either wire's shape.
const conversation = fc.record({
  gemini: fc.boolean(),
  before: fc.nat({ max: 4 }),
  turns: fc.nat({ max: 6 }),
  scenario: fc.constantFrom('main', 'resume2', 'apierr', 'sub'),
  trailingResult: fc.boolean(),
});

describe('readScenarioPosition (property)', () => {
  it('finds the marker and counts exactly the model messages after it', () => {
    fc.assert(
      fc.property(conversation, ({ gemini, before, turns, scenario, trailingResult }) => {
        const model = gemini ? 'model' : 'assistant';
        const user = (text: string) =>
          gemini ? { role: 'user', parts: [{ text }] } : { role: 'user', content: [{ type: 'text', text }] };
        const result = gemini
          ? {
              role: 'user',
              parts: [{ functionResponse: { name: 't', response: { output: '[scenario:x]' } } }],
            }
          : { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: '[scenario:x]' }] };
        const messages: unknown[] = [];
        for (let index = 0; index < before; index += 1)
          messages.push(user('[scenario:old]'), { role: model, parts: [] });
        messages.push(user(`Go. [scenario:${scenario}]`));
        for (let index = 0; index < turns; index += 1) {
          messages.push({ role: model, content: [] });
          if (index < turns - 1 || trailingResult) messages.push(result);
        }
        const body = gemini ? { contents: messages } : { messages };
        expect(readScenarioPosition(body)).toEqual({ scenario, turn: turns, messageCount: messages.length });
      }),
    );
  });
});
