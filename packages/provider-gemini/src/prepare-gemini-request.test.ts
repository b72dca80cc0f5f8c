import { bytesToBase64, type ModelMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { prepareGeminiRequest } from './prepare-gemini-request.js';

const MODEL = 'gemini-2.5-flash';
const GIF = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('prepareGeminiRequest', () => {
  it('builds the whole body: contents, system instruction, tools, settings and provider options', () => {
    expect(
      prepareGeminiRequest(
        {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'List files' },
          ],
          tools: [{ name: 'ls', description: 'List', inputSchema: { type: 'object', properties: {} } }],
          toolChoice: 'required',
          settings: { maxOutputTokens: 256, temperature: 0.2, topP: 0.9, stopSequences: ['END'], seed: 7 },
          providerOptions: {
            gemini: {
              thinkingConfig: { includeThoughts: true },
              safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
            },
            anthropic: { thinking: { type: 'enabled', budget_tokens: 1024 } },
          },
        },
        MODEL,
      ),
    ).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'List files' }] }],
      tools: [{ functionDeclarations: [{ name: 'ls', description: 'List' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: {
        maxOutputTokens: 256,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        seed: 7,
        thinkingConfig: { includeThoughts: true },
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
  });

  it('leaves out what the request does not set', () => {
    expect(prepareGeminiRequest({ messages: [{ role: 'user', content: 'Hi' }] }, MODEL)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: {},
    });
  });

  it('asks for JSON with the schema cleaned to Gemini’s subset, properties in the schema’s order', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        title: { type: 'string' },
        tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
        author: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['title', 'tags', 'author'],
      additionalProperties: false,
      $defs: {
        tag: { type: 'object', properties: { name: { type: 'string' }, weight: { type: 'number' } } },
      },
    };
    const body = prepareGeminiRequest(
      {
        messages: [{ role: 'user', content: 'Describe the post' }],
        output: { type: 'json', schema, name: 'post', description: 'A blog post' },
        settings: { temperature: 0 },
      },
      MODEL,
    );
    expect(body.generationConfig).toEqual({
      temperature: 0,
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'object',
        description: 'A blog post',
        properties: {
          title: { type: 'string' },
          tags: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, weight: { type: 'number' } },
              propertyOrdering: ['name', 'weight'],
            },
          },
          author: { type: 'string', nullable: true },
        },
        propertyOrdering: ['title', 'tags', 'author'],
        required: ['title', 'tags', 'author'],
      },
    });
    // The caller's schema is left as it was.
    expect(schema.additionalProperties).toBe(false);
  });

  it('refuses, before building anything, media Gemini does not take, naming the message and what it takes', () => {
    const gif: ModelMessage = {
      role: 'user',
      content: [
        { type: 'image', mediaType: 'image/gif', source: { type: 'base64', data: bytesToBase64(GIF) } },
      ],
    };
    const refused = () => prepareGeminiRequest({ messages: [{ role: 'user', content: 'Hi' }, gif] }, MODEL);
    expect(refused).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_CONTENT',
        message: expect.stringMatching(/gemini model gemini-2\.5-flash cannot take image\/gif \(message 1\)/),
        details: expect.objectContaining({ messageIndex: 1, mediaType: 'image/gif' }),
      }),
    );
    const audio: ModelMessage = {
      role: 'user',
      content: [{ type: 'audio', mediaType: 'audio/wav', data: 'x' }],
    };
    expect(() => prepareGeminiRequest({ messages: [audio] }, MODEL)).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_CONTENT',
        details: expect.objectContaining({ partType: 'audio' }),
      }),
    );
  });

  it('nests a tool’s image in its function response on Gemini 3, and puts it beside on earlier models', () => {
    const image = {
      type: 'image' as const,
      mediaType: 'image/png',
      source: { type: 'base64' as const, data: bytesToBase64(PNG) },
    };
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Screenshot please' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: [image] },
    ];
    const inlineData = { mimeType: 'image/png', data: image.source.data };
    const response = { name: 'shot', response: { content: '' } };
    expect(prepareGeminiRequest({ messages }, 'gemini-3-pro-preview').contents.at(-1)?.parts).toEqual([
      { functionResponse: { ...response, parts: [{ inlineData }] } },
    ]);
    expect(prepareGeminiRequest({ messages }, 'models/gemini-3.1-flash').contents.at(-1)?.parts).toHaveLength(
      1,
    );
    expect(prepareGeminiRequest({ messages }, MODEL).contents.at(-1)?.parts).toEqual([
      { functionResponse: response },
      { inlineData },
    ]);
    // An alias says no version: the provider option decides, either way.
    const nested = { gemini: { functionResponseMedia: 'nested' } };
    expect(
      prepareGeminiRequest({ messages, providerOptions: nested }, 'gemini-flash-latest').contents.at(-1)
        ?.parts,
    ).toEqual([{ functionResponse: { ...response, parts: [{ inlineData }] } }]);
    const beside = { gemini: { functionResponseMedia: 'beside' } };
    expect(
      prepareGeminiRequest({ messages, providerOptions: beside }, 'gemini-3-pro-preview').contents.at(-1)
        ?.parts,
    ).toHaveLength(2);
  });
});
