import { describe, expect, it } from 'vitest';
import { buildAiSdkCallOptions } from './ai-sdk-call-options.js';

const messages = [{ role: 'user' as const, content: 'Hi' }];
const schema = { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] };

describe('buildAiSdkCallOptions', () => {
  it('maps settings, tools, tool choice, output and headers; the signal goes as abortSignal', () => {
    const signal = new AbortController().signal;
    const options = buildAiSdkCallOptions(
      {
        messages,
        tools: [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object' } }],
        toolChoice: { toolName: 'get_weather' },
        output: { type: 'json', schema, description: 'A colour' },
        settings: { maxOutputTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ['END'], seed: 7 },
        headers: { 'x-trace': '1' },
      },
      { version: 'v4', provider: 'mock.chat', signal },
    );
    expect(options).toEqual({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', inputSchema: { type: 'object' } },
      ],
      toolChoice: { type: 'tool', toolName: 'get_weather' },
      responseFormat: { type: 'json', schema, name: 'output', description: 'A colour' },
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ['END'],
      seed: 7,
      headers: { 'x-trace': '1' },
      abortSignal: signal,
    });
  });

  it('sends no tool fields without tools, and a string tool choice as its type', () => {
    expect(
      buildAiSdkCallOptions({ messages, toolChoice: 'required' }, { version: 'v2', provider: 'p' }),
    ).toEqual({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    const tools = [{ name: 't', description: '', inputSchema: { type: 'object' } }];
    expect(
      buildAiSdkCallOptions({ messages, tools, toolChoice: 'none' }, { version: 'v3', provider: 'p' })
        .toolChoice,
    ).toEqual({
      type: 'none',
    });
  });

  it("passes providerOptions through by namespace; the request's replace the adapter's of the same name", () => {
    const options = buildAiSdkCallOptions(
      { messages, providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } },
      {
        version: 'v4',
        provider: 'anthropic.messages',
        providerOptions: { anthropic: { sendReasoning: true }, mistral: { safePrompt: true } },
      },
    );
    expect(options.providerOptions).toEqual({
      anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } },
      mistral: { safePrompt: true },
    });
  });
});
