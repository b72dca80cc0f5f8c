import type { CairnError } from '@cairn/core';
import { createResultAssembler } from '@cairn/provider-utils';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { readOpenAIResponse } from './read-openai-response.js';

function response(message: Record<string, unknown>, finishReason: string | null = 'stop'): ChatCompletion {
  return {
    id: 'chatcmpl-9',
    object: 'chat.completion',
    created: 0,
    model: 'm-2025',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', refusal: null, ...message },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: {
      prompt_tokens: 9,
      completion_tokens: 4,
      total_tokens: 13,
      prompt_tokens_details: { cached_tokens: 8 },
    },
  } as ChatCompletion;
}

function read(completion: ChatCompletion) {
  const assembler = createResultAssembler();
  readOpenAIResponse(completion, assembler);
  return assembler.complete();
}

describe('readOpenAIResponse', () => {
  it('builds the result of a text answer', () => {
    expect(read(response({ content: 'Hi!' }))).toEqual({
      message: { role: 'assistant', content: 'Hi!' },
      usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13, cacheReadTokens: 8 },
      finishReason: 'stop',
      rawFinishReason: 'stop',
      responseId: 'chatcmpl-9',
      modelId: 'm-2025',
    });
  });

  it('keeps tool calls with their JSON-string arguments verbatim, content null', () => {
    const calls = [
      { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path": "a"}' } },
      { id: 'call_2', type: 'function', function: { name: 'now', arguments: '' } },
    ];
    const result = read(response({ content: null, tool_calls: calls }, 'tool_calls'));
    expect(result.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [calls[0], { ...calls[1], function: { name: 'now', arguments: '{}' } }],
    });
    expect(result.finishReason).toBe('tool_calls');
  });

  it('reads reasoning_content and refusals', () => {
    expect(read(response({ content: null, reasoning_content: 'Hmm.', refusal: 'No.' })).message).toEqual({
      role: 'assistant',
      content: 'No.',
      reasoning: [{ text: 'Hmm.' }],
    });
  });

  it('says other when a compatible server gives no finish reason', () => {
    const result = read(response({ content: 'x' }, null));
    expect(result.finishReason).toBe('other');
    expect(result).not.toHaveProperty('rawFinishReason');
  });

  it('refuses a response without choices with LLM_BAD_RESPONSE', () => {
    const empty = { ...response({ content: 'x' }), choices: [] };
    expect(() => readOpenAIResponse(empty, createResultAssembler())).toThrow(
      expect.objectContaining({ code: 'LLM_BAD_RESPONSE' }) as CairnError,
    );
  });
});
