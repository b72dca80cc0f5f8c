import { readFileSync } from 'node:fs';
import type { AgentOutput, ModelMessage } from '@cairn/core';
import { startReplayServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIAdapter } from './openai-adapter.js';

// Answers written from OpenAI's documented examples (see __fixtures__/openai-chat/README.md).
const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/openai-chat/${name}`, import.meta.url), 'utf8');
const CALLS_WHOLE = fixture('parallel-tool-calls.json');
const TEXT_WHOLE = fixture('text.json');
const CALLS_STREAMED = fixture('parallel-tool-calls.sse');
const TEXT_STREAMED = fixture('text.sse');

const USER: ModelMessage = {
  role: 'user',
  content: "What's the weather like in Paris and Bogotá today?",
};
const CALLS_MESSAGE = {
  role: 'assistant',
  content: null,
  tool_calls: [
    {
      id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' },
    },
    {
      id: 'call_ABqRw5wIuZyYyxdRg8rXKfyp',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"location":"Bogotá, Colombia"}' },
    },
  ],
};
const CALLS_USAGE = {
  inputTokens: 2006,
  outputTokens: 300,
  totalTokens: 2306,
  cacheReadTokens: 1920,
  reasoningTokens: 256,
};
const TEXT = 'It is 18 °C in Paris and 14 °C in Bogotá.';
const TEXT_USAGE = {
  inputTokens: 2102,
  outputTokens: 84,
  totalTokens: 2186,
  cacheReadTokens: 1920,
  reasoningTokens: 64,
};
const TOOL_RESULTS: ModelMessage[] = [
  { role: 'tool', tool_call_id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', content: '{"celsius":18}' },
  { role: 'tool', tool_call_id: 'call_ABqRw5wIuZyYyxdRg8rXKfyp', content: '{"celsius":14}' },
];

/** The second request: the stored answer (after a trip through JSON, as a store keeps it) and both results. */
const replay = (answer: unknown): ModelMessage[] => [
  USER,
  JSON.parse(JSON.stringify(answer)) as ModelMessage,
  ...TOOL_RESULTS,
];

const adapterFor = (baseURL: string) => createOpenAIAdapter({ model: 'o4-mini', baseURL, apiKey: 'sk-test' });

// The mock's request rules stay on (the default): the replayed turn must pass them to be answered.
describe('Chat Completions adapter on documented answers', () => {
  it('reads whole responses: parallel calls with JSON-string arguments, then text, with usage', async () => {
    const server = await startReplayServer({ provider: 'openai', answers: [CALLS_WHOLE, TEXT_WHOLE] });
    try {
      const adapter = adapterFor(server.baseURL);
      const first = await adapter.generate({ messages: [USER] });
      expect(first.message).toEqual(CALLS_MESSAGE);
      expect(first.usage).toEqual(CALLS_USAGE);
      expect(first.finishReason).toBe('tool_calls');
      expect(first.rawFinishReason).toBe('tool_calls');
      expect(first.responseId).toBe('chatcmpl-BnYqJ5qOXgkqCY8Gd5C6o8EhKPy3r');

      const second = await adapter.generate({ messages: replay(first.message) });
      expect(second.message).toEqual({ role: 'assistant', content: TEXT });
      expect(second.usage).toEqual(TEXT_USAGE);
      expect(second.finishReason).toBe('stop');
      expect(second.rawFinishReason).toBe('stop');
      // The calls go back as they came: same ids, arguments byte for byte.
      expect(server.requests[1]?.body).toMatchObject({
        messages: [USER, CALLS_MESSAGE, ...TOOL_RESULTS],
      });
      // The rules are really on: the same replay missing the Bogotá result is refused.
      await expect(adapter.generate({ messages: replay(first.message).slice(0, -1) })).rejects.toThrow(
        /did not have response messages: call_ABqRw5wIuZyYyxdRg8rXKfyp/,
      );
    } finally {
      await server.close();
    }
  });

  it('reads streamed responses: indexed argument deltas, text deltas, the usage chunk', async () => {
    const server = await startReplayServer({ provider: 'openai', answers: [CALLS_STREAMED, TEXT_STREAMED] });
    try {
      const adapter = adapterFor(server.baseURL);
      const stream = adapter.stream({ messages: [USER] });
      for await (const _event of stream) {
        // Drained; the assembled result is what is checked.
      }
      const first = await stream.result;
      expect(first.message).toEqual(CALLS_MESSAGE);
      expect(first.usage).toEqual(CALLS_USAGE);
      expect(first.finishReason).toBe('tool_calls');
      expect(first.rawFinishReason).toBe('tool_calls');
      expect(server.requests[0]?.body).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });

      const textStream = adapter.stream({ messages: replay(first.message) });
      const events: AgentOutput[] = [];
      for await (const event of textStream) events.push(event);
      const second = await textStream.result;
      const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
      expect(deltas).toEqual(['It is', ' 18 °C', ' in Paris', ' and 14 °C', ' in Bogotá', '.']);
      expect(second.message).toEqual({ role: 'assistant', content: TEXT });
      expect(second.usage).toEqual(TEXT_USAGE);
      expect(second.finishReason).toBe('stop');
      expect(server.requests[1]?.body).toMatchObject({
        messages: [USER, CALLS_MESSAGE, ...TOOL_RESULTS],
      });
    } finally {
      await server.close();
    }
  });
});
