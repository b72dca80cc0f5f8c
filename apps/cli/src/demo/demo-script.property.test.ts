import type { ScriptTurn } from '@cairn/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoTurn } from './demo-script.js';
import { playDemo, requestBody, TOUR_TOOLS } from './test-support.js';

const toolName = fc.constantFrom(...TOUR_TOOLS, 'write_file', 'grep', '');
const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'The messages to summarise:\n\nUSER: hi',
    'Exit code 1\nnot ok 1 - x',
    'Updated src/greet.js',
  ),
);
const content = fc.oneof(text, fc.constant(null), fc.array(fc.record({ type: fc.constant('text'), text })));
const toolCall = fc.record({
  id: fc.string(),
  type: fc.constant('function'),
  function: fc.record({ name: toolName, arguments: fc.string() }),
});
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user', 'developer'), content }),
  fc.record(
    { role: fc.constant('assistant'), content, tool_calls: fc.array(toolCall, { maxLength: 3 }) },
    { requiredKeys: ['role'] },
  ),
  fc.record({ role: fc.constant('tool'), tool_call_id: fc.string(), content }),
  fc.anything(),
);

/** What a mock server needs of a turn: text or calls, calls of offered tools with object arguments. */
function expectValidTurn(turn: ScriptTurn, offered: readonly string[]): void {
  expect(turn.text === undefined || typeof turn.text === 'string').toBe(true);
  expect((turn.text ?? '').length > 0 || (turn.toolCalls ?? []).length > 0).toBe(true);
  for (const call of turn.toolCalls ?? []) {
    expect(offered).toContain(call.name);
    expect(TOUR_TOOLS).toContain(call.name);
    expect(typeof call.id).toBe('string');
    expect(JSON.parse(JSON.stringify(call.arguments))).toEqual(call.arguments);
  }
  expect(Number.isSafeInteger(turn.usage?.inputTokens) && (turn.usage?.inputTokens ?? 0) > 0).toBe(true);
}

describe('demoTurn (property)', () => {
  it('answers any message history with a valid turn calling only offered tour tools', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 12 }),
        fc.subarray([...TOUR_TOOLS, 'grep']),
        (messages, tools) => {
          expectValidTurn(demoTurn(requestBody(messages, tools)), tools);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers any body at all', () => {
    fc.assert(
      fc.property(fc.anything(), (body) => {
        expectValidTurn(demoTurn(body), []);
      }),
      { numRuns: 100 },
    );
  });

  it('ends the tour with an answer after at most four calls, whatever the tools return', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 4, maxLength: 6 }),
        fc.subarray([...TOUR_TOOLS]),
        (results, tools) => {
          const { turns } = playDemo(results, { tools });
          const last = turns.at(-1);
          expect(last?.toolCalls).toBeUndefined();
          expect(turns.length).toBeLessThanOrEqual(5);
          for (const turn of turns) expectValidTurn(turn, tools);
        },
      ),
      { numRuns: 100 },
    );
  });
});
