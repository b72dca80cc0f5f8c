import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { createResultAssembler } from '@cairn/provider-utils';
import { describe, expect, it } from 'vitest';
import { readAnthropicMessage } from './read-anthropic-message.js';

function read(message: Record<string, unknown>) {
  const assembler = createResultAssembler();
  readAnthropicMessage(message as unknown as Message, assembler);
  return assembler.complete();
}

const usage = {
  input_tokens: 20,
  output_tokens: 8,
  cache_read_input_tokens: 4,
  cache_creation_input_tokens: null,
};

describe('readAnthropicMessage', () => {
  it('builds the assistant message: thinking with signature, redacted data, text, tool calls', () => {
    expect(
      read({
        id: 'msg_1',
        model: 'claude-x',
        stop_reason: 'tool_use',
        usage,
        content: [
          { type: 'thinking', thinking: 'Plan.', signature: 'sig' },
          { type: 'redacted_thinking', data: 'enc' },
          { type: 'text', text: 'Checking.', citations: null },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} },
        ],
      }),
    ).toEqual({
      message: {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'toolu_2', type: 'function', function: { name: 'now', arguments: '{}' } },
        ],
        reasoning: [
          { text: 'Plan.', providerMetadata: { anthropic: { signature: 'sig' } } },
          { text: '', redacted: true, providerMetadata: { anthropic: { data: 'enc' } } },
        ],
      },
      usage: { inputTokens: 24, outputTokens: 8, totalTokens: 32, cacheReadTokens: 4 },
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
      responseId: 'msg_1',
      modelId: 'claude-x',
    });
  });

  it('joins several text blocks and maps refusal to content_filter', () => {
    const result = read({
      id: 'msg_2',
      model: 'claude-x',
      stop_reason: 'refusal',
      usage,
      content: [
        { type: 'text', text: 'One. ' },
        { type: 'text', text: 'Two.' },
      ],
    });
    expect(result.message.content).toBe('One. Two.');
    expect(result).toMatchObject({ finishReason: 'content_filter', rawFinishReason: 'refusal' });
  });
});
