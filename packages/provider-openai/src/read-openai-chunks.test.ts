import type { AgentOutput } from '@cairn/core';
import { createResultAssembler } from '@cairn/provider-utils';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { readOpenAIChunks } from './read-openai-chunks.js';

type Delta = ChatCompletionChunk.Choice['delta'] & Record<string, unknown>;

function chunk(delta: Delta, finishReason: string | null = null, extra: Partial<ChatCompletionChunk> = {}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm-2025',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  } as ChatCompletionChunk;
}

async function read(chunks: ChatCompletionChunk[]) {
  const events: AgentOutput[] = [];
  const assembler = createResultAssembler({ now: () => new Date(0), onEvent: (event) => events.push(event) });
  await readOpenAIChunks(
    (async function* () {
      yield* chunks;
    })(),
    assembler,
  );
  return { result: assembler.complete(), events, types: events.map((event) => event.type) };
}

const usageChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm-2025',
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
} as ChatCompletionChunk;

describe('readOpenAIChunks', () => {
  it('streams text, then the usage chunk after the finish reason', async () => {
    const { result, types } = await read([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      usageChunk,
    ]);
    expect(types).toEqual(['text_delta', 'text_delta', 'text', 'usage', 'finish']);
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello' },
      usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
      finishReason: 'stop',
      rawFinishReason: 'stop',
      responseId: 'chatcmpl-1',
      modelId: 'm-2025',
    });
  });

  it('joins parallel tool calls from indexed deltas and ends them at the finish reason', async () => {
    const { result, events } = await read([
      chunk({ content: 'Reading.' }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
      chunk({
        tool_calls: [
          { index: 1, id: 'call_b', type: 'function', function: { name: 'now', arguments: '{}' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(events.map((event) => [event.type, 'id' in event ? event.id : undefined])).toEqual([
      ['text_delta', 'text-0'],
      ['text', 'text-0'],
      ['tool_input_delta', 'call_a'],
      ['tool_input_delta', 'call_b'],
      ['tool_input_delta', 'call_a'],
      ['tool_use', 'call_a'],
      ['tool_use', 'call_b'],
      ['finish', undefined],
    ]);
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
        { id: 'call_b', type: 'function', function: { name: 'now', arguments: '{}' } },
      ],
    });
    expect(result.finishReason).toBe('tool_calls');
  });

  it('says tool_calls after a forced tool choice, where OpenAI says stop', async () => {
    const { result } = await read([
      chunk({
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'now', arguments: '{}' } },
        ],
      }),
      chunk({}, 'stop'),
    ]);
    expect([result.finishReason, result.rawFinishReason]).toEqual(['tool_calls', 'stop']);
  });

  it('gives calls a compatible server sent without an id an id unique to the response', async () => {
    const { result } = await read([
      chunk({
        tool_calls: [{ index: 0, function: { name: 'now', arguments: '{}' } }] as NonNullable<
          Delta['tool_calls']
        >,
      }),
      chunk({}, 'tool_calls'),
    ]);
    expect(result.message.tool_calls?.[0]?.id).toBe('call_chatcmpl-1_0');
  });

  it('reads compatible servers reasoning (reasoning_content or reasoning) and closes it before the answer', async () => {
    for (const field of ['reasoning_content', 'reasoning']) {
      const { result, types } = await read([
        chunk({ [field]: 'Think' }),
        chunk({ [field]: 'ing' }),
        chunk({ content: 'Done' }),
        chunk({}, 'stop'),
      ]);
      expect(types).toEqual([
        'reasoning_delta',
        'reasoning_delta',
        'reasoning',
        'text_delta',
        'text',
        'finish',
      ]);
      expect(result.message).toEqual({
        role: 'assistant',
        content: 'Done',
        reasoning: [{ text: 'Thinking' }],
      });
    }
  });

  it('keeps a refusal as the answer text', async () => {
    const { result } = await read([
      chunk({ content: null, refusal: "I can't help with that." }),
      chunk({}, 'stop'),
    ]);
    expect(result.message.content).toBe("I can't help with that.");
  });

  it('reads only the first choice', async () => {
    const second = chunk({ content: 'other' });
    second.choices = [{ ...second.choices[0], index: 1 } as ChatCompletionChunk.Choice];
    const { result } = await read([chunk({ content: 'first' }), second, chunk({}, 'stop')]);
    expect(result.message.content).toBe('first');
  });
});
