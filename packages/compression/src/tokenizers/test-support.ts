import type { ModelMessage } from '@cairn/core';
import fc from 'fast-check';

const textArb = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const idArb = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);

/** Any valid ModelMessage, with text of every kind (lone surrogates included). */
export const messageArb: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), content: textArb }),
  fc.record({ role: fc.constant('user' as const), content: textArb }),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(textArb, { nil: null }),
      tool_calls: fc.array(
        fc.record({
          id: idArb,
          type: fc.constant('function' as const),
          function: fc.record({ name: idArb, arguments: fc.oneof(textArb, fc.json()) }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      reasoning: fc.array(fc.record({ text: textArb }), { maxLength: 2 }),
    },
    { requiredKeys: ['role', 'content', 'tool_calls'] },
  ),
  fc.record(
    { role: fc.constant('tool' as const), tool_call_id: idArb, content: textArb, isError: fc.boolean() },
    { requiredKeys: ['role', 'tool_call_id', 'content'] },
  ),
);

/** `count` user messages of a few words each, every one a new object. */
export function userMessages(count: number, label = 'message'): ModelMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    role: 'user',
    content: `${label} ${index}: some words`,
  }));
}
