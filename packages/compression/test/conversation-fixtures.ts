import type { ModelMessage, Tokenizer } from '@cairn/core';
import fc from 'fast-check';

/** A tokenizer simple enough to reason about in tests: 4 per message plus a token per 4 characters. */
export const testTokenizer: Tokenizer = {
  name: 'test',
  countText: (text) => Math.ceil(text.length / 4),
  count: (messages) =>
    messages.reduce((total, message) => {
      let text = message.content ?? '';
      if (message.role === 'assistant') {
        for (const call of message.tool_calls ?? []) text += call.function.name + call.function.arguments;
      }
      return total + 4 + Math.ceil(text.length / 4);
    }, 0),
};

const words = (count: number, seed: number) =>
  Array.from({ length: count }, (_, index) => `word${(seed * 31 + index) % 97}`).join(' ');

/** One user turn: the request, `calls` tool rounds (each with outputs of `outputLength`), the answer. */
export function turn(index: number, calls: number, outputLength: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: `Question ${index}: ${words(12, index)}` }];
  for (let round = 0; round < calls; round++) {
    const id = `call_${index}_${round}`;
    messages.push({
      role: 'assistant',
      content: round === 0 ? `Let me look (${index}).` : null,
      tool_calls: [
        { id, type: 'function', function: { name: 'read_file', arguments: `{"path":"src/f${index}.ts"}` } },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: id,
      content: words(Math.ceil(outputLength / 7), index + round),
    });
  }
  messages.push({ role: 'assistant', content: `Answer ${index}: ${words(20, index + 1)}` });
  return messages;
}

/** A system prompt and `turns` turns. */
export function conversation(turns: number, calls = 2, outputLength = 2_000): ModelMessage[] {
  return [
    { role: 'system', content: 'You are a careful coding assistant.' },
    ...Array.from({ length: turns }, (_, index) => turn(index, calls, outputLength)).flat(),
  ];
}

/** Random conversations: turns of 0–3 tool rounds with outputs of random length, sometimes parallel calls. */
export const conversationArbitrary = fc
  .array(
    fc.record({
      rounds: fc.array(fc.record({ calls: fc.integer({ min: 1, max: 3 }), output: fc.nat(3_000) }), {
        maxLength: 3,
      }),
      answer: fc.boolean(),
    }),
    { minLength: 1, maxLength: 25 },
  )
  .map((turns) => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'system prompt' }];
    turns.forEach((shape, index) => {
      messages.push({ role: 'user', content: `request ${index} ${words(8, index)}` });
      shape.rounds.forEach((round, roundIndex) => {
        const ids = Array.from({ length: round.calls }, (_, call) => `c${index}_${roundIndex}_${call}`);
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: ids.map((id) => ({
            id,
            type: 'function',
            function: { name: 'grep', arguments: '{}' },
          })),
        });
        for (const id of ids)
          messages.push({ role: 'tool', tool_call_id: id, content: 'x'.repeat(round.output) });
      });
      if (shape.answer || shape.rounds.length === 0)
        messages.push({ role: 'assistant', content: `answer ${index}` });
    });
    return messages;
  });
