import { describe, expect, it } from 'vitest';
import { prepareGeminiRequest } from './prepare-gemini-request.js';

describe('prepareGeminiRequest', () => {
  it('builds the whole body: contents, system instruction, tools, settings and provider options', () => {
    expect(
      prepareGeminiRequest({
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
      }),
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
    expect(prepareGeminiRequest({ messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: {},
    });
  });
});
