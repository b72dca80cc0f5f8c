import { readFileSync } from 'node:fs';
import type { AgentOutput, ModelAssistantMessage } from '@cairn/core';
import { startReplayServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIResponsesAdapter } from './openai-responses-adapter.js';

// Answers written from OpenAI's documented examples (see __fixtures__/openai-responses/README.md).
const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/openai-responses/${name}`, import.meta.url), 'utf8');
interface ReasoningItem {
  id: string;
  encrypted_content: string;
  summary: { type: 'summary_text'; text: string }[];
}
interface FunctionCallItem {
  id: string;
  call_id: string;
  name: string;
  arguments: string;
}
const WHOLE_TEXT = fixture('reasoning-function-call.json');
const WHOLE = JSON.parse(WHOLE_TEXT) as {
  output: [ReasoningItem, FunctionCallItem];
};
const STREAMED = fixture('reasoning-text.sse');

const [REASONING, CALL] = WHOLE.output;

describe('Responses adapter on documented answers', () => {
  it('reads a whole response: reasoning kept with its encrypted content, a call, usage', async () => {
    // Both turns get the documented answer. Replayed encrypted content is the fixture's, not the
    // mock's: the body is checked below instead of by the mock's rules.
    const server = await startReplayServer({
      provider: 'openai-responses',
      answers: [WHOLE_TEXT, WHOLE_TEXT],
      validateRequests: false,
    });
    try {
      const adapter = createOpenAIResponsesAdapter({
        model: 'gpt-5',
        baseURL: server.baseURL,
        apiKey: 'sk-test',
      });
      const user = { role: 'user' as const, content: 'What is the weather like in Paris today?' };
      const result = await adapter.generate({ messages: [user] });
      expect(result.message).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_UH4QLbqWyR2kEPUmc7iLDb7V',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          },
        ],
        reasoning: [
          {
            text: REASONING.summary.map((part) => part.text).join(''),
            providerMetadata: {
              openai: { itemId: REASONING.id, encryptedContent: REASONING.encrypted_content },
            },
          },
        ],
        providerMetadata: {
          openai: {
            items: [
              { type: 'reasoning', id: REASONING.id },
              { type: 'function_call', id: CALL.id, callId: CALL.call_id },
            ],
          },
        },
      });
      expect(result.usage).toEqual({
        inputTokens: 75,
        outputTokens: 1186,
        totalTokens: 1261,
        cacheReadTokens: 64,
        reasoningTokens: 1024,
      });
      expect(result.finishReason).toBe('tool_calls');
      expect(result.rawFinishReason).toBe('completed');

      // Replayed (after a trip through JSON, as a store keeps it): the items as they came, in order.
      const stored = JSON.parse(JSON.stringify(result.message)) as ModelAssistantMessage;
      const result2 = {
        role: 'tool' as const,
        tool_call_id: CALL.call_id,
        content: '{"celsius":18}',
      };
      await adapter.generate({ messages: [user, stored, result2] });
      expect(server.requests[1]?.body).toMatchObject({
        store: false,
        include: ['reasoning.encrypted_content'],
        input: [
          user,
          {
            type: 'reasoning',
            id: REASONING.id,
            summary: REASONING.summary,
            encrypted_content: REASONING.encrypted_content,
          },
          {
            type: 'function_call',
            id: CALL.id,
            call_id: CALL.call_id,
            name: CALL.name,
            arguments: CALL.arguments,
          },
          { type: 'function_call_output', call_id: CALL.call_id, output: '{"celsius":18}' },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it('reads a streamed response: summary deltas as reasoning events, text deltas, usage', async () => {
    const server = await startReplayServer({ provider: 'openai-responses', answers: [STREAMED] });
    try {
      const adapter = createOpenAIResponsesAdapter({
        model: 'o4-mini',
        baseURL: server.baseURL,
        apiKey: 'sk-test',
      });
      const stream = adapter.stream({ messages: [{ role: 'user', content: 'Hello!' }] });
      const events: AgentOutput[] = [];
      for await (const event of stream) events.push(event);
      const result = await stream.result;
      const deltas = (type: string) =>
        events.flatMap((event) => (event.type === type && 'delta' in event ? [event.delta] : []));
      expect(deltas('reasoning_delta')).toEqual(['**Greeting the user**\n\n', 'A friendly hello.']);
      expect(deltas('text_delta')).toEqual(['Hi there!', ' How can I help?']);
      expect(result.message).toMatchObject({
        content: 'Hi there! How can I help?',
        reasoning: [
          {
            text: '**Greeting the user**\n\nA friendly hello.',
            providerMetadata: { openai: { itemId: 'rs_67c9fdcf0a3c8190a7e3b1ad16bd24c007b8b0ad4e5eb654' } },
          },
        ],
        providerMetadata: {
          openai: {
            items: [
              { type: 'reasoning', id: 'rs_67c9fdcf0a3c8190a7e3b1ad16bd24c007b8b0ad4e5eb654' },
              { type: 'message', id: 'msg_67c9fdcf37fc8190ba82116e33fb28c507b8b0ad4e5eb654' },
            ],
          },
        },
      });
      expect(result.message.reasoning?.[0]?.providerMetadata?.openai?.encryptedContent).toMatch(/^gAAAAA/);
      expect(result.usage).toEqual({
        inputTokens: 37,
        outputTokens: 211,
        totalTokens: 248,
        cacheReadTokens: 0,
        reasoningTokens: 192,
      });
      expect(result.finishReason).toBe('stop');
      expect(result.responseId).toBe('resp_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654');
    } finally {
      await server.close();
    }
  });
});
