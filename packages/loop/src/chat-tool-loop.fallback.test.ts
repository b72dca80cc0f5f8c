import type { AgentOutput, ModelMessage } from '@cairn/core';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { createFallbackModel, MODEL_FALLBACK_STATUS } from '@cairn/provider-utils';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { weatherTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import type { LoopAssistantMessage } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';

// A fallback model in the loop, on the real adapters (their official SDKs) against @cairn/testing's
// loopback servers: the primary fails before any output, or its stream is cut off mid-answer.

const servers: MockProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(...args: Parameters<typeof startMockProviderServer>): Promise<MockProviderServer> {
  const server = await startMockProviderServer(...args);
  servers.push(server);
  return server;
}

const question = (): ModelMessage[] => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Oslo?' },
];

describe('chatToolLoop with createFallbackModel', () => {
  it('moves to the next model when the primary fails before any output; each answer records its model', async () => {
    const openai = await serve({
      provider: 'openai',
      turns: [{ fault: { status: 503 } }, { text: 'Oslo is at -3 °C.' }],
    });
    const anthropic = await serve({
      provider: 'anthropic',
      turns: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }],
    });
    const model = createFallbackModel([
      createOpenAIAdapter({ model: 'gpt-test', baseURL: openai.baseURL, apiKey: 'sk-test', maxRetries: 0 }),
      createAnthropicAdapter({ model: 'claude-test', baseURL: anthropic.baseURL, apiKey: 'sk-test' }),
    ]);
    const events: AgentOutput[] = [];
    const handed: LoopAssistantMessage[] = [];
    const messages = question();
    const result = await chatToolLoop({
      model,
      tools: createToolHost([weatherTool]),
      messages,
      onEvent: (event) => void events.push(event),
      onAssistantMessage: (message) => void handed.push(message),
    });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, turns: 2, text: 'Oslo is at -3 °C.' });
    // The switch was silent but for the status event; the second call went to the primary again.
    const switches = events.filter((event) => event.type === 'status');
    expect(switches).toHaveLength(1);
    expect(switches[0]).toMatchObject({
      status: MODEL_FALLBACK_STATUS,
      providerMetadata: {
        cairn: {
          from: { provider: 'openai', model: 'gpt-test' },
          to: { provider: 'anthropic', model: 'claude-test' },
          code: 'LLM_UNAVAILABLE',
          afterOutput: false,
        },
      },
    });
    expect(handed.map((message) => message.providerMetadata?.cairn)).toEqual([
      { provider: 'anthropic', model: 'claude-test' },
      { provider: 'openai', model: 'gpt-test' },
    ]);
    expect(handed.some((message) => message.interrupted)).toBe(false);
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect([openai.requests.length, anthropic.requests.length]).toEqual([2, 1]);
  });

  it('keeps a cut-off answer as an interrupted message and lets the next model answer the turn', async () => {
    const anthropic = await serve({
      provider: 'anthropic',
      turns: [{ text: 'It is bitterly cold in Oslo today, around', chunkSize: 4, cutAfterEvents: 6 }],
    });
    const gemini = await serve({ provider: 'gemini', turns: [{ text: 'Oslo: -3 °C and snowing.' }] });
    const model = createFallbackModel([
      createAnthropicAdapter({
        model: 'claude-test',
        baseURL: anthropic.baseURL,
        apiKey: 'sk-test',
        maxRetries: 0,
      }),
      createGeminiAdapter({ model: 'gemini-test', baseURL: gemini.baseURL, apiKey: 'test-key' }),
    ]);
    const events: AgentOutput[] = [];
    const handed: LoopAssistantMessage[] = [];
    const messages = question();
    const result = await chatToolLoop({
      model,
      messages,
      onEvent: (event) => void events.push(event),
      onAssistantMessage: (message) => void handed.push(message),
    });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, turns: 1, text: 'Oslo: -3 °C and snowing.' });
    const [cut, answer] = handed;
    expect(handed).toHaveLength(2);
    expect(cut).toMatchObject({
      interrupted: true,
      finishReason: 'error',
      turn: 1,
      providerMetadata: { cairn: { provider: 'anthropic', model: 'claude-test' } },
    });
    expect(cut?.content).not.toBe('');
    expect('It is bitterly cold in Oslo today, around'.startsWith(cut?.content as string)).toBe(true);
    expect(answer).toMatchObject({
      content: 'Oslo: -3 °C and snowing.',
      turn: 1,
      providerMetadata: { cairn: { provider: 'gemini' } },
    });
    expect(answer?.interrupted).toBeUndefined();
    const status = events.find((event) => event.type === 'status');
    expect(status).toMatchObject({ providerMetadata: { cairn: { afterOutput: true } } });
    // One finish, last: the loop saw one model call.
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'assistant']);
    // The cut-off answer was not replayed to the primary; the next model got the question as it was.
    expect([anthropic.requests.length, gemini.requests.length]).toEqual([1, 1]);
  });
});
