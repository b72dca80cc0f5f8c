import type {
  LanguageModelV2StreamPart,
  LanguageModelV3StreamPart,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { AgentOutput } from '@cairn/core';
import { createResultAssembler } from '@cairn/provider-utils';
import { describe, expect, it } from 'vitest';
import { type AiSdkStreamPart, readAiSdkStream } from './read-ai-sdk-stream.js';

const PROVIDER = 'anthropic.messages';

async function read(parts: readonly unknown[]) {
  const events: AgentOutput[] = [];
  const assembler = createResultAssembler({ onEvent: (event) => events.push(event), source: PROVIDER });
  await readAiSdkStream(parts as AiSdkStreamPart[], assembler, PROVIDER);
  return { events, result: assembler.complete(), types: events.map((event) => event.type) };
}

// The body of one answer (reasoning with a signature, text, a streamed tool call), the same in
// every version: only usage and finish reason are shaped differently.
const body = [
  { type: 'response-metadata', id: 'msg_1', modelId: 'claude-x', timestamp: new Date(0) },
  { type: 'reasoning-start', id: 'r0' },
  { type: 'reasoning-delta', id: 'r0', delta: 'Think' },
  { type: 'reasoning-delta', id: 'r0', delta: '', providerMetadata: { anthropic: { signature: 'sig' } } },
  { type: 'reasoning-end', id: 'r0' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Hel' },
  { type: 'text-delta', id: 't1', delta: 'lo' },
  { type: 'text-end', id: 't1' },
  { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"city":' },
  { type: 'tool-input-delta', id: 'call_1', delta: '"Oslo"}' },
  { type: 'tool-input-end', id: 'call_1' },
  { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
] as const;

const v4: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  ...(body as unknown as LanguageModelV4StreamPart[]),
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: {
      inputTokens: { total: 100, noCache: 20, cacheRead: 70, cacheWrite: 10 },
      outputTokens: { total: 40, text: 10, reasoning: 30 },
    },
  },
];
const v3: LanguageModelV3StreamPart[] = v4 as unknown as LanguageModelV3StreamPart[];
const v2: LanguageModelV2StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  ...(body as unknown as LanguageModelV2StreamPart[]),
  {
    type: 'finish',
    finishReason: 'tool-calls',
    usage: {
      inputTokens: 100,
      outputTokens: 40,
      totalTokens: 140,
      reasoningTokens: 30,
      cachedInputTokens: 70,
    },
  },
];

const message = {
  role: 'assistant',
  content: 'Hello',
  tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
  ],
  reasoning: [{ text: 'Think', providerMetadata: { [PROVIDER]: { anthropic: { signature: 'sig' } } } }],
};

describe('readAiSdkStream', () => {
  it.each([
    ['v4', v4],
    ['v3', v3],
  ])(
    'reads a %s stream: blocks, the signed reasoning, the tool call, usage with cache and reasoning tokens, the raw reason',
    async (_version, parts) => {
      const { result, types } = await read(parts);
      // The empty delta that carries the signature is no event.
      expect(types).toEqual([
        'reasoning_delta',
        'reasoning',
        'text_delta',
        'text_delta',
        'text',
        'tool_input_delta',
        'tool_input_delta',
        'tool_use',
        'usage',
        'finish',
      ]);
      expect(result).toMatchObject({
        message,
        responseId: 'msg_1',
        modelId: 'claude-x',
        finishReason: 'tool_calls',
        rawFinishReason: 'tool_use',
        usage: {
          inputTokens: 100,
          outputTokens: 40,
          cacheReadTokens: 70,
          cacheWriteTokens: 10,
          reasoningTokens: 30,
        },
      });
    },
  );

  it('reads a v2 stream: the flat usage, and no raw finish reason (V2 has none)', async () => {
    const { result } = await read(v2);
    expect(result).toMatchObject({
      message,
      finishReason: 'tool_calls',
      usage: {
        inputTokens: 100,
        outputTokens: 40,
        totalTokens: 140,
        cacheReadTokens: 70,
        reasoningTokens: 30,
      },
    });
    expect(result.rawFinishReason).toBeUndefined();
  });

  it('marks reasoning without replay data as this provider’s (an empty namespace), so it is replayed to it alone', async () => {
    const { result } = await read([
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Hmm.' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    expect(result.message.reasoning).toEqual([{ text: 'Hmm.', providerMetadata: { [PROVIDER]: {} } }]);
  });

  it("keeps a tool call's replay data (Google's thought signature) keyed by its id, and a call sent whole", async () => {
    const { result } = await read([
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'get_weather',
        input: '{}',
        providerMetadata: { google: { thoughtSignature: 'ts' } },
      },
      {
        type: 'finish',
        finishReason: 'tool-calls',
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      },
    ]);
    expect(result.message).toMatchObject({
      tool_calls: [{ id: 'c1', function: { name: 'get_weather', arguments: '{}' } }],
      providerMetadata: { [PROVIDER]: { c1: { google: { thoughtSignature: 'ts' } } } },
    });
  });

  it("keeps a text block's replay data (Google's thought signature on text) once for the message's text", async () => {
    const { result } = await read([
      { type: 'text-start', id: 't' },
      {
        type: 'text-delta',
        id: 't',
        delta: 'Done.',
        providerMetadata: { google: { thoughtSignature: 'tx' } },
      },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Done.',
      providerMetadata: { [PROVIDER]: { $text: { google: { thoughtSignature: 'tx' } } } },
    });
  });

  it('passes on what Cairn has no event for (a source, a provider-executed call, a file) as unknown events', async () => {
    const { events, result } = await read([
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
      { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    expect(
      events
        .filter((event) => event.type === 'unknown')
        .map((event) => event.type === 'unknown' && event.raw),
    ).toEqual([
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
      { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'file', mediaType: 'image/png', data: 'AQID' },
    ]);
    expect(result.message.tool_calls).toBeUndefined();
  });

  it('throws the error of an error part', async () => {
    const error = new Error('overloaded');
    await expect(
      read([
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'error', error },
      ]),
    ).rejects.toBe(error);
  });
});
