import type { ModelRequest } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { buildOpenAIRequestBody } from './openai-request-body.js';

const messages: ModelRequest['messages'] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hi' },
];

describe('buildOpenAIRequestBody', () => {
  it('sends only the model and the messages when nothing else is set', () => {
    expect(buildOpenAIRequestBody({ messages }, 'gpt-test', 'max_completion_tokens')).toEqual({
      model: 'gpt-test',
      messages,
    });
  });

  it('maps every setting, maxOutputTokens to the chosen field', () => {
    const settings = { maxOutputTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ['END'], seed: 7 };
    const mapped = { temperature: 0.2, top_p: 0.9, stop: ['END'], seed: 7 };
    expect(buildOpenAIRequestBody({ messages, settings }, 'm', 'max_completion_tokens')).toEqual({
      model: 'm',
      messages,
      max_completion_tokens: 100,
      ...mapped,
    });
    expect(buildOpenAIRequestBody({ messages, settings }, 'm', 'max_tokens')).toEqual({
      model: 'm',
      messages,
      max_tokens: 100,
      ...mapped,
    });
  });

  it('leaves out an empty stop list and keeps zero values', () => {
    const body = buildOpenAIRequestBody(
      { messages, settings: { stopSequences: [], temperature: 0, seed: 0 } },
      'm',
      'max_tokens',
    );
    expect(body).toEqual({ model: 'm', messages, temperature: 0, seed: 0 });
  });

  it('adds tools and tool_choice', () => {
    const body = buildOpenAIRequestBody(
      {
        messages,
        tools: [{ name: 'now', description: 'The time', inputSchema: { type: 'object' } }],
        toolChoice: 'required',
      },
      'm',
      'max_tokens',
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'now', description: 'The time', parameters: { type: 'object' } },
      },
    ]);
    expect(body.tool_choice).toBe('required');
  });

  it('passes providerOptions.openai through, over the settings but never over model or messages', () => {
    const body = buildOpenAIRequestBody(
      {
        messages,
        settings: { temperature: 0.5 },
        providerOptions: {
          openai: { reasoning_effort: 'low', temperature: 1, model: 'other', messages: [] },
          anthropic: { thinking: { type: 'enabled' } },
        },
      },
      'm',
      'max_tokens',
    );
    expect(body).toEqual({ model: 'm', messages, temperature: 1, reasoning_effort: 'low' });
  });
});
