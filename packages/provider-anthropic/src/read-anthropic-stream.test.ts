import { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { AgentOutput } from '@cairn/core';
import { classifyError, createResultAssembler } from '@cairn/provider-utils';
import { describe, expect, it } from 'vitest';
import { readAnthropicStream } from './read-anthropic-stream.js';

type Event = { type: string } & Record<string, unknown>;

const sse = (...events: Event[]) =>
  events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

const messageStart = (usage: Record<string, number> = { input_tokens: 10, output_tokens: 1 }): Event => ({
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage },
});
const start = (index: number, content_block: Record<string, unknown>): Event => ({
  type: 'content_block_start',
  index,
  content_block,
});
const delta = (index: number, value: Record<string, unknown>): Event => ({
  type: 'content_block_delta',
  index,
  delta: value,
});
const stop = (index: number): Event => ({ type: 'content_block_stop', index });
const messageDelta = (
  stop_reason: string | null,
  usage: Record<string, unknown> = { output_tokens: 9 },
): Event => ({
  type: 'message_delta',
  delta: { stop_reason, stop_sequence: null },
  usage,
});
const messageStop: Event = { type: 'message_stop' };

async function read(body: string) {
  const events: AgentOutput[] = [];
  const assembler = createResultAssembler({ now: () => new Date(0), onEvent: (event) => events.push(event) });
  await readAnthropicStream(Stream.rawEvents(new Response(body)), assembler);
  return { events, result: assembler.complete() };
}

async function readFailure(body: string) {
  try {
    await read(body);
  } catch (error) {
    return classifyError(error, { provider: 'anthropic' });
  }
  throw new Error('expected the stream to fail');
}

describe('readAnthropicStream', () => {
  it('keeps a thinking block with the signature from signature_delta, and a redacted block with its data', async () => {
    const { events, result } = await read(
      sse(
        messageStart(),
        start(0, { type: 'thinking', thinking: '', signature: '' }),
        delta(0, { type: 'thinking_delta', thinking: 'Let me ' }),
        delta(0, { type: 'thinking_delta', thinking: 'think.' }),
        delta(0, { type: 'signature_delta', signature: 'sig-abc' }),
        stop(0),
        start(1, { type: 'redacted_thinking', data: 'encrypted-xyz' }),
        stop(1),
        start(2, { type: 'text', text: '' }),
        delta(2, { type: 'text_delta', text: 'Answer.' }),
        stop(2),
        messageDelta('end_turn'),
        messageStop,
      ),
    );
    expect(events.filter((event) => event.type === 'reasoning')).toEqual([
      expect.objectContaining({
        text: 'Let me think.',
        providerMetadata: { anthropic: { signature: 'sig-abc' } },
      }),
      expect.objectContaining({
        text: '',
        redacted: true,
        providerMetadata: { anthropic: { data: 'encrypted-xyz' } },
      }),
    ]);
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Answer.',
      reasoning: [
        { text: 'Let me think.', providerMetadata: { anthropic: { signature: 'sig-abc' } } },
        { text: '', redacted: true, providerMetadata: { anthropic: { data: 'encrypted-xyz' } } },
      ],
    });
  });

  it('keeps no signature metadata for a thinking block that never got one', async () => {
    const { result } = await read(
      sse(
        messageStart(),
        start(0, { type: 'thinking', thinking: 'hmm', signature: '' }),
        stop(0),
        start(1, { type: 'text', text: 'ok' }),
        stop(1),
        messageDelta('end_turn'),
      ),
    );
    expect(result.message.reasoning).toEqual([{ text: 'hmm' }]);
  });

  it('takes a tool input given whole in content_block_start, and normalises streamed JSON', async () => {
    const { result } = await read(
      sse(
        messageStart(),
        start(0, { type: 'tool_use', id: 'toolu_a', name: 'a', input: { x: 1 } }),
        stop(0),
        start(1, { type: 'tool_use', id: 'toolu_b', name: 'b', input: {} }),
        delta(1, { type: 'input_json_delta', partial_json: '{ "y" :' }),
        delta(1, { type: 'input_json_delta', partial_json: ' [1, 2] }' }),
        stop(1),
        start(2, { type: 'tool_use', id: 'toolu_c', name: 'c', input: {} }),
        stop(2),
        messageDelta('tool_use'),
      ),
    );
    expect(result.message.tool_calls?.map((call) => call.function.arguments)).toEqual([
      '{"x":1}',
      '{"y":[1,2]}',
      '{}',
    ]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it('keeps invalid streamed tool JSON raw', async () => {
    const { events, result } = await read(
      sse(
        messageStart(),
        start(0, { type: 'tool_use', id: 'toolu_a', name: 'a', input: {} }),
        delta(0, { type: 'input_json_delta', partial_json: '{"x": tru' }),
        stop(0),
        messageDelta('max_tokens'),
      ),
    );
    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({ input: '{"x": tru' });
    expect(result.message.tool_calls?.[0]?.function.arguments).toBe('{"x": tru');
    // A call cut by the token limit is still a call (`tool_calls` exactly when there are calls);
    // the raw reason says why it is cut.
    expect(result).toMatchObject({ finishReason: 'tool_calls', rawFinishReason: 'max_tokens' });
  });

  it('folds message_delta usage (cache counts included) into message_start usage', async () => {
    const { result } = await read(
      sse(
        messageStart({
          input_tokens: 5,
          output_tokens: 1,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 7,
        }),
        start(0, { type: 'text', text: 'hi' }),
        stop(0),
        messageDelta('end_turn', {
          output_tokens: 42,
          input_tokens: null,
          output_tokens_details: { thinking_tokens: 30 },
        }),
      ),
    );
    expect(result.usage).toEqual({
      inputTokens: 112,
      outputTokens: 42,
      totalTokens: 154,
      cacheReadTokens: 100,
      cacheWriteTokens: 7,
      reasoningTokens: 30,
    });
  });

  it('passes server-tool blocks and unknown deltas on as unknown events, skips ping, stops at message_stop', async () => {
    const { result, events } = await read(
      `event: ping\ndata: {"type": "ping"}\n\n${sse(
        messageStart(),
        start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
        delta(0, { type: 'input_json_delta_v2', partial_json: '{}' }),
        stop(0),
        start(1, { type: 'text', text: '' }),
        delta(1, { type: 'citations_delta', citation: {} }),
        delta(1, { type: 'text_delta', text: 'Found it.' }),
        stop(1),
        messageDelta('end_turn'),
        messageStop,
        messageDelta('max_tokens'),
      )}`,
    );
    expect(result.message).toEqual({ role: 'assistant', content: 'Found it.' });
    expect(result.finishReason).toBe('stop');
    expect(events.filter((event) => event.type === 'unknown').map((event) => event.raw)).toEqual([
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      { type: 'input_json_delta_v2', partial_json: '{}' },
      { type: 'citations_delta', citation: {} },
    ]);
  });

  it('throws an error event as the error it names: overloaded → LLM_UNAVAILABLE', async () => {
    const error = await readFailure(
      `${sse(messageStart())}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`,
    );
    expect(error).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
    expect(error.message).toMatch(/Overloaded/);
  });

  it('throws LLM_BAD_RESPONSE with the raw text for data that is not a JSON event', async () => {
    for (const data of ['{"type": nope', '[1,2]', '"text"']) {
      const error = await readFailure(`${sse(messageStart())}event: content_block_delta\ndata: ${data}\n\n`);
      expect(error).toMatchObject({ code: 'LLM_BAD_RESPONSE', details: { raw: data } });
    }
  });

  it('throws LLM_BAD_RESPONSE for tool input on a block that is not a tool call', async () => {
    const error = await readFailure(
      sse(
        messageStart(),
        start(0, { type: 'text', text: '' }),
        delta(0, { type: 'input_json_delta', partial_json: '{' }),
      ),
    );
    expect(error.code).toBe('LLM_BAD_RESPONSE');
  });
});
