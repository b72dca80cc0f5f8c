import type { ModelAdapter, ModelMessage, OpenAIToolCall } from '@cairn/core';

/** A tool call of `name` with `args`, its id `id`. */
export const toolCall = (id: string, name = 'echo', args: object = { text: id }): OpenAIToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** A model answering with `message` once, then with text. */
export function modelAnswering(message: ModelMessage & { role: 'assistant' }): ModelAdapter {
  let turn = 0;
  return {
    provider: 'test',
    modelId: 'test',
    capabilities: { streaming: false, toolCalls: true, parallelToolCalls: true, reasoning: false },
    async generate() {
      turn++;
      return turn === 1
        ? { message, usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'tool_calls' }
        : {
            message: { role: 'assistant', content: 'done' },
            usage: { inputTokens: 1, outputTokens: 1 },
            finishReason: 'stop',
          };
    },
    stream() {
      throw new Error('not streaming');
    },
  };
}
