import type { ModelAdapter } from '@cairn/core';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { type MockProvider, type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { echoTool, weatherTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import { createToolHost } from './create-tool-host.js';

// One whole tool loop per provider: the official SDK behind each adapter, against @cairn/testing's
// loopback server speaking that provider's wire protocol (which refuses an unanswered tool call).

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const adapters: Record<MockProvider, (baseURL: string) => ModelAdapter> = {
  openai: (baseURL) => createOpenAIAdapter({ model: 'gpt-test', baseURL, apiKey: 'sk-test' }),
  anthropic: (baseURL) => createAnthropicAdapter({ model: 'claude-test', baseURL, apiKey: 'sk-test' }),
  gemini: (baseURL) => createGeminiAdapter({ model: 'gemini-test', baseURL, apiKey: 'test-key' }),
};

describe.each(Object.keys(adapters) as MockProvider[])('chatToolLoop with the %s adapter', (provider) => {
  it('retries a rate limit, runs parallel calls, sends the results back and ends with the answer', async () => {
    server = await startMockProviderServer({
      provider,
      turns: [
        { fault: { status: 429, retryAfterMs: 20 } },
        {
          text: 'Let me look.',
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Oslo' } },
            { name: 'echo', arguments: { text: 'brr' } },
          ],
        },
        { text: 'Oslo is cold.' },
      ],
    });
    const messages: Parameters<typeof chatToolLoop>[0]['messages'] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ];
    const persisted: string[] = [];
    const result = await chatToolLoop({
      model: adapters[provider](server.baseURL),
      tools: createToolHost([weatherTool, echoTool]),
      messages,
      onAssistantMessage: (message) => void persisted.push(`assistant:${message.tool_calls?.length ?? 0}`),
      onToolMessage: (message) => void persisted.push(`tool:${message.toolName}`),
    });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, turns: 2, finishReason: 'stop' });
    expect(result.message?.content).toBe('Oslo is cold.');
    expect(persisted).toEqual(['assistant:2', 'tool:get_weather', 'tool:echo', 'assistant:0']);
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(messages.slice(3, 5).map((message) => message.content)).toEqual([
      '{"city":"Oslo","celsius":4}',
      'echo: brr',
    ]);
    // The 429, then the call, then the request carrying both results (which the server checked).
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]?.body)).toContain('echo: brr');
  });
});
