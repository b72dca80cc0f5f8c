import { readFileSync } from 'node:fs';
import type { AgentOutput, ModelMessage, ModelResult } from '@cairn/core';
import { anthropicRequestProblem, startMockProviderServer, startReplayServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../src/index.js';

// Responses written from Anthropic's documented examples (see __fixtures__/anthropic-docs/README.md),
// read through the real SDK: the streamed ones replayed by the Anthropic mock, the whole ones by a
// replay server that checks each request with the mock's rules. What the adapter makes of them must
// go back to the API as a request the rules accept, the thinking signature byte for byte.

const fixture = (name: string) =>
  readFileSync(new URL(`__fixtures__/anthropic-docs/${name}`, import.meta.url), 'utf8');

const MODEL = 'claude-opus-4-8';
const THINKING = { anthropic: { thinking: { type: 'enabled', budget_tokens: 16000 } } };
const THOUGHT = 'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3';
const SIGNATURE = 'bW9jay1hbnRocm9waWMtc2lnbmF0dXJlOjk2MTlhZTZiYTc4NTE5Yzk3ODE3YTY5MTMzYjUwY2I3';

const ANSWER = JSON.stringify({
  id: 'msg_answer',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'It is 15°C and sunny in San Francisco.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 600, output_tokens: 12 },
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const adapterAt = (baseURL: string) =>
  // Cache breakpoints would change the replayed blocks; they are tested on their own.
  createAnthropicAdapter({ model: MODEL, apiKey: 'sk-test', baseURL, maxRetries: 0, promptCaching: false });

async function streamed(
  adapter: ReturnType<typeof createAnthropicAdapter>,
  input: Parameters<ReturnType<typeof createAnthropicAdapter>['stream']>[0],
): Promise<{ events: AgentOutput[]; result: ModelResult }> {
  const stream = adapter.stream(input);
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

const deltas = (events: AgentOutput[], type: AgentOutput['type']) =>
  events.flatMap((event) => (event.type === type && 'delta' in event ? [event.delta] : []));

const TOOLS = [
  {
    name: 'get_weather',
    description: 'Get the current weather in a given location',
    inputSchema: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['location'],
    },
  },
];

const WEATHER: ModelMessage = { role: 'user', content: 'What is the weather like in San Francisco?' };
const MATH: ModelMessage = { role: 'user', content: 'What is 27 * 453?' };

/** What the request sent back for an assistant message (the one after the first user message). */
const replayed = (body: unknown) => (body as { messages: unknown[] }).messages.slice(1);

describe('Anthropic’s documented tool-use examples', () => {
  it('whole: the text and the call with its input as a JSON string, and the call goes back answered', async () => {
    const server = await startReplayServer({
      provider: 'anthropic',
      answers: [fixture('tool-use.json'), ANSWER],
    });
    closers.push(server.close);
    const adapter = adapterAt(server.baseURL);

    const first = await adapter.generate({ messages: [WEATHER], tools: TOOLS });
    expect(first.message).toEqual({
      role: 'assistant',
      content: "I'll check the current weather in San Francisco for you.",
      tool_calls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
        },
      ],
    });
    expect(first).toMatchObject({
      usage: { inputTokens: 472, outputTokens: 89, totalTokens: 561 },
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
      responseId: 'msg_01Aq9w938a90dw8q',
    });

    const result: ModelMessage = {
      role: 'tool',
      tool_call_id: 'toolu_01A09q90qw90lq917835lq9',
      content: '15 degrees, sunny',
    };
    const second = await adapter.generate({ messages: [WEATHER, first.message, result], tools: TOOLS });
    expect(second.message.content).toBe('It is 15°C and sunny in San Francisco.');
    expect(replayed(server.requests[1]?.body)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll check the current weather in San Francisco for you." },
          {
            type: 'tool_use',
            id: 'toolu_01A09q90qw90lq917835lq9',
            name: 'get_weather',
            input: { location: 'San Francisco, CA', unit: 'celsius' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '15 degrees, sunny' },
        ],
      },
    ]);
  });

  it('streamed: text and input_json_delta pieces as documented, and the replay passes the mock', async () => {
    const mock = await startMockProviderServer({
      provider: 'anthropic',
      turns: [{ rawSse: fixture('tool-use.sse') }, { text: 'It is 60°F and sunny in San Francisco.' }],
    });
    closers.push(() => mock.close());
    const adapter = adapterAt(mock.baseURL);

    const { events, result } = await streamed(adapter, { messages: [WEATHER], tools: TOOLS });
    expect(deltas(events, 'text_delta').join('')).toBe(
      "Okay, let's check the weather for San Francisco, CA:",
    );
    // The empty first piece the API opens every tool_use block with is not an event.
    expect(deltas(events, 'tool_input_delta')).toEqual([
      '{"location":',
      ' "San',
      ' Francisc',
      'o,',
      ' CA"',
      ', ',
      '"unit": "fah',
      'renheit"}',
    ]);
    expect(events.filter((event) => event.type === 'tool_use')).toEqual([
      expect.objectContaining({
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        toolName: 'get_weather',
        input: { location: 'San Francisco, CA', unit: 'fahrenheit' },
      }),
    ]);
    expect(result.message).toEqual({
      role: 'assistant',
      content: "Okay, let's check the weather for San Francisco, CA:",
      tool_calls: [
        {
          id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          type: 'function',
          function: {
            name: 'get_weather',
            arguments: '{"location":"San Francisco, CA","unit":"fahrenheit"}',
          },
        },
      ],
    });
    expect(result).toMatchObject({
      usage: { inputTokens: 472, outputTokens: 89, totalTokens: 561 },
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
      responseId: 'msg_014p7gG3wDgGV9EUtLvnow3U',
    });

    const answer = await streamed(adapter, {
      messages: [
        WEATHER,
        result.message,
        { role: 'tool', tool_call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', content: '60 degrees, sunny' },
      ],
      tools: TOOLS,
    });
    expect(answer.result.message.content).toBe('It is 60°F and sunny in San Francisco.');
    expect(replayed(mock.requests[1]?.body)[0]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: "Okay, let's check the weather for San Francisco, CA:" },
        {
          type: 'tool_use',
          id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          name: 'get_weather',
          input: { location: 'San Francisco, CA', unit: 'fahrenheit' },
        },
      ],
    });
  });
});

describe('Anthropic’s documented extended-thinking examples', () => {
  const thinkingBlock = { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE };
  const reasoning = [{ text: THOUGHT, providerMetadata: { anthropic: { signature: SIGNATURE } } }];
  const MORE: ModelMessage = { role: 'user', content: 'And 27 * 454?' };

  it('whole: the thinking as reasoning with its signature, sent back byte for byte; an altered one is refused', async () => {
    const server = await startReplayServer({
      provider: 'anthropic',
      answers: [fixture('thinking.json'), ANSWER],
    });
    closers.push(server.close);
    const adapter = adapterAt(server.baseURL);

    const first = await adapter.generate({ messages: [MATH], providerOptions: THINKING });
    expect(first.message).toEqual({ role: 'assistant', content: '27 * 453 = 12,231', reasoning });
    expect(first).toMatchObject({
      usage: { inputTokens: 46, outputTokens: 121, totalTokens: 167 },
      finishReason: 'stop',
      rawFinishReason: 'end_turn',
      responseId: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    });

    await adapter.generate({ messages: [MATH, first.message, MORE], providerOptions: THINKING });
    expect(replayed(server.requests[1]?.body)[0]).toEqual({
      role: 'assistant',
      content: [thinkingBlock, { type: 'text', text: '27 * 453 = 12,231' }],
    });

    // The rules really look at the signature: the same history with one character changed is refused.
    const altered: ModelMessage = {
      ...first.message,
      reasoning: [
        { text: THOUGHT, providerMetadata: { anthropic: { signature: `x${SIGNATURE.slice(1)}` } } },
      ],
    };
    await expect(
      adapter.generate({ messages: [MATH, altered, MORE], providerOptions: THINKING }),
    ).rejects.toMatchObject({
      code: 'LLM_BAD_REQUEST',
      message: expect.stringContaining('Invalid `signature` in `thinking` block'),
    });
  });

  it('streamed: thinking_delta pieces as reasoning events, the signature_delta kept, and the replay passes the mock', async () => {
    const mock = await startMockProviderServer({
      provider: 'anthropic',
      turns: [{ rawSse: fixture('thinking.sse') }, { reasoning: 'Add 27 once more.', text: '12,258' }],
    });
    closers.push(() => mock.close());
    const adapter = adapterAt(mock.baseURL);

    const { events, result } = await streamed(adapter, { messages: [MATH], providerOptions: THINKING });
    expect(deltas(events, 'reasoning_delta')).toEqual([
      'Let me solve this step by step:\n\n1. First break down 27 * 453',
      '\n2. 453 = 400 + 50 + 3',
    ]);
    expect(events.filter((event) => event.type === 'reasoning')).toEqual([
      expect.objectContaining({ text: THOUGHT, providerMetadata: { anthropic: { signature: SIGNATURE } } }),
    ]);
    expect(deltas(events, 'text_delta')).toEqual(['27 * 453 = 12,231']);
    expect(result.message).toEqual({ role: 'assistant', content: '27 * 453 = 12,231', reasoning });
    expect(result).toMatchObject({
      usage: { inputTokens: 46, outputTokens: 121, totalTokens: 167 },
      finishReason: 'stop',
      rawFinishReason: 'end_turn',
    });

    const next = await streamed(adapter, {
      messages: [MATH, result.message, MORE],
      providerOptions: THINKING,
    });
    expect(next.result.message.content).toBe('12,258');
    expect(replayed(mock.requests[1]?.body)[0]).toEqual({
      role: 'assistant',
      content: [thinkingBlock, { type: 'text', text: '27 * 453 = 12,231' }],
    });
  });

  it('with tool use: the thinking goes back ahead of the call with the tool result; without it thinking waits for the loop to end', async () => {
    const thought =
      'The user wants to know the current weather in Paris. I have access to a function `get_weather` that can provide this information. I should call it with Paris as the location.';
    const signature = 'bW9jay1hbnRocm9waWMtc2lnbmF0dXJlOmYxMjkwZjAxZmUzZGI0ZjNjYjFmMDZhYTMyZGQ3NDg1';
    const mock = await startMockProviderServer({
      provider: 'anthropic',
      turns: [
        { rawSse: fixture('thinking-tool-use.sse') },
        { text: 'The current weather in Paris is 88°F and sunny.' },
        { text: 'The current weather in Paris is 88°F and sunny.' },
      ],
    });
    closers.push(() => mock.close());
    const adapter = adapterAt(mock.baseURL);
    const paris: ModelMessage = { role: 'user', content: 'What is the weather in Paris?' };

    const { result } = await streamed(adapter, {
      messages: [paris],
      tools: TOOLS,
      providerOptions: THINKING,
    });
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'I need to check the current weather in Paris for you.',
      reasoning: [{ text: thought, providerMetadata: { anthropic: { signature } } }],
      tool_calls: [
        {
          id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
        },
      ],
    });
    expect(result).toMatchObject({
      usage: { inputTokens: 412, outputTokens: 97, totalTokens: 509 },
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
    });

    const weather: ModelMessage = {
      role: 'tool',
      tool_call_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
      content: '88°F, sunny',
    };
    // The same loop after its reasoning was dropped (as after another provider): the adapter
    // leaves thinking off until the loop ends, since the API refuses thinking on with that history.
    const { reasoning: _dropped, ...unreasoned } = result.message;
    const fallback = await streamed(adapter, {
      messages: [paris, unreasoned, weather],
      tools: TOOLS,
      providerOptions: THINKING,
    });
    expect(fallback.result.message.content).toBe('The current weather in Paris is 88°F and sunny.');
    const unthought = mock.requests[1]?.body as Record<string, unknown>;
    expect(unthought.thinking).toBeUndefined();
    expect(anthropicRequestProblem({ ...unthought, thinking: THINKING.anthropic.thinking })).toContain(
      'must start with a thinking block',
    );

    const answer = await streamed(adapter, {
      messages: [paris, result.message, weather],
      tools: TOOLS,
      providerOptions: THINKING,
    });
    expect(answer.result.message.content).toBe('The current weather in Paris is 88°F and sunny.');
    const signed = mock.requests[2]?.body as Record<string, unknown>;
    expect(signed.thinking).toEqual(THINKING.anthropic.thinking);
    expect(replayed(signed)[0]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: thought, signature },
        { type: 'text', text: 'I need to check the current weather in Paris for you.' },
        {
          type: 'tool_use',
          id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
          name: 'get_weather',
          input: { location: 'Paris' },
        },
      ],
    });
  });
});
