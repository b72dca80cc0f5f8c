import { describe, expect, it } from 'vitest';
import { isOpenAIReasoningModel } from './openai-responses-adapter.js';
import { buildOpenAIResponsesRequestBody } from './openai-responses-request-body.js';

const messages = [{ role: 'user' as const, content: 'Hi' }];
const options = { model: 'gpt-5', reasoning: true, store: false };
const tool = {
  name: 'get_weather',
  description: 'Weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('buildOpenAIResponsesRequestBody', () => {
  it('asks a reasoning model for summaries and encrypted reasoning, storing nothing', () => {
    expect(buildOpenAIResponsesRequestBody({ messages }, options)).toEqual({
      model: 'gpt-5',
      input: [{ role: 'user', content: 'Hi' }],
      store: false,
      reasoning: { summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    expect(buildOpenAIResponsesRequestBody({ messages }, { ...options, reasoning: false })).toEqual({
      model: 'gpt-5',
      input: [{ role: 'user', content: 'Hi' }],
      store: false,
    });
  });

  it('maps settings, flat function tools (not strict) and a named tool choice', () => {
    const body = buildOpenAIResponsesRequestBody(
      {
        messages,
        tools: [tool],
        toolChoice: { toolName: 'get_weather' },
        settings: { maxOutputTokens: 100, temperature: 0.2, topP: 0.9, seed: 7 },
      },
      options,
    );
    expect(body).toMatchObject({
      max_output_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather',
          parameters: tool.inputSchema,
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect(body).not.toHaveProperty('seed');
  });

  it('sends structured output as text.format, in strict form', () => {
    const body = buildOpenAIResponsesRequestBody(
      {
        messages,
        output: {
          type: 'json',
          name: 'answer',
          schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        },
      },
      options,
    );
    expect(body.text).toEqual({
      format: {
        type: 'json_schema',
        name: 'answer',
        strict: true,
        schema: {
          type: 'object',
          properties: { a: { type: 'string' } },
          required: ['a'],
          additionalProperties: false,
        },
      },
    });
  });

  it('refuses stop sequences, which the API lacks, and lets providerOptions override all but model and input', () => {
    expect(() =>
      buildOpenAIResponsesRequestBody({ messages, settings: { stopSequences: ['END'] } }, options),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    const body = buildOpenAIResponsesRequestBody(
      {
        messages,
        providerOptions: { openai: { reasoning: { effort: 'low' }, store: true, model: 'other' } },
      },
      options,
    );
    expect(body).toMatchObject({ reasoning: { effort: 'low' }, store: true, model: 'gpt-5' });
  });
});

describe('isOpenAIReasoningModel', () => {
  it('knows GPT-5, the o-series and Codex reason, and GPT-4.1 and gpt-5-chat do not', () => {
    for (const id of [
      'gpt-5',
      'gpt-5-mini',
      'gpt-5.1',
      'o3',
      'o4-mini',
      'codex-mini-latest',
      'openai/gpt-5',
    ]) {
      expect(isOpenAIReasoningModel(id), id).toBe(true);
    }
    for (const id of ['gpt-4.1-mini', 'gpt-4o', 'gpt-5-chat-latest', 'gpt-5.1-chat-latest']) {
      expect(isOpenAIReasoningModel(id), id).toBe(false);
    }
  });
});
