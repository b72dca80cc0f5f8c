import { CairnError, type ModelAdapter } from '@cairn/core';
import { createToolHost } from '@cairn/loop';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { readUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { type ChatStreamEvent, createAgentRuntime, type UIMessageChunk } from '../src/index.js';
import { weatherTool } from './weather-tool.js';

const tools = createToolHost([weatherTool]);
const TOOL_TURNS: ScriptTurn[] = [
  {
    reasoning: 'The user wants the weather.',
    text: 'Checking.',
    toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }],
  },
  { text: 'It is -3 °C in Oslo.' },
];

function runtimeWith(turns: ScriptTurn[], model: ModelAdapter = new ScriptedModel({ turns })) {
  const store = createMemoryConversationStore();
  return { store, runtime: createAgentRuntime({ store, model, tools, settings: { compression: false } }) };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage | undefined> {
  let last: UIMessage | undefined;
  // Cast: our chunk type is the protocol's subset; the reader takes the AI SDK's own union.
  for await (const message of readUIMessageStream({ stream: stream as never, terminateOnError: true })) {
    last = message;
  }
  return last;
}

const kinds = (events: ChatStreamEvent[]) =>
  events.map((event) => (event.type === 'runtime' ? event.event : event.type));

describe('runtime.stream', () => {
  it('yields the turn events, the text deltas and the same result chat returns', async () => {
    const { runtime, store } = runtimeWith(TOOL_TURNS);
    const stream = runtime.stream({ conversationId: 'c1', userInput: 'Weather in Oslo?' });
    const events = await collect(stream);
    expect(kinds(events)).toContain('tool_use');
    expect(kinds(events)).toContain('tool_result');
    expect(kinds(events).filter((kind) => kind === 'message_persisted')).toHaveLength(4);
    expect((await collect(stream.textStream)).join('')).toBe('Checking.It is -3 °C in Oslo.');
    const result = await stream.result;
    expect(result).toMatchObject({
      conversationId: 'c1',
      success: true,
      text: 'It is -3 °C in Oslo.',
      turns: 2,
    });
    expect(await store.load('c1')).toHaveLength(4);
  });

  it('gives the store a look at its completed syncs on every event it streams (settleDurableWrites)', async () => {
    const { store, runtime } = runtimeWith(TOOL_TURNS);
    let looks = 0;
    Object.assign(store, {
      settleDurableWrites: () => {
        looks++;
      },
    });
    // How many looks each event found done before it reached the listener.
    const looksBefore: number[] = [];
    await runtime.chat({ userInput: 'Weather in Oslo?', onEvent: () => looksBefore.push(looks) });
    expect(looksBefore.length).toBeGreaterThan(5);
    expect(looksBefore).toEqual(looksBefore.map((_, index) => index + 1));
  });

  it('replays every event to each reader, however late, and runs and stores the turn with no reader at all', async () => {
    const { runtime, store } = runtimeWith(TOOL_TURNS);
    const stream = runtime.stream({ conversationId: 'c2', userInput: 'Weather?' });
    const result = await stream.result;
    expect(result.success).toBe(true);
    expect(await store.load('c2')).toHaveLength(4);
    const first = await collect(stream);
    const second = await collect(stream);
    expect(second).toEqual(first);
    expect(first[0]).toMatchObject({ type: 'runtime', event: 'message_persisted' });

    const unread = runtimeWith([{ text: 'Hi.' }]);
    unread.runtime.stream({ conversationId: 'c3', userInput: 'Hello' });
    await expect.poll(async () => (await unread.store.load('c3').catch(() => [])).length).toBe(2);
  });

  it('breaking out of a loop stops reading, not the turn', async () => {
    const { runtime, store } = runtimeWith([{ text: 'one two three four', chunkSize: 4, chunkDelayMs: 5 }]);
    const stream = runtime.stream({ conversationId: 'c4', userInput: 'Count' });
    for await (const delta of stream.textStream) {
      expect(delta).toBe('one ');
      break;
    }
    const result = await stream.result;
    expect(result).toMatchObject({ success: true, text: 'one two three four' });
    expect((await store.load('c4')).at(-1)).toMatchObject({
      role: 'assistant',
      content: 'one two three four',
    });
  });

  it('a failed turn: the events end with the error, result resolves with it, the UI stream sends an error chunk', async () => {
    const { runtime } = runtimeWith([{ fault: { status: 401 } }]);
    const stream = runtime.stream({ conversationId: 'c5', userInput: 'Hi' });
    const events = await collect(stream);
    expect(events.some((event) => event.type === 'error' && event.code === 'LLM_AUTH')).toBe(true);
    const result = await stream.result;
    expect(result).toMatchObject({ success: false, finishReason: 'error' });
    expect(result.error?.code).toBe('LLM_AUTH');
    const chunks = await collect(stream.toUIMessageStream());
    const error = chunks.find((chunk) => chunk.type === 'error');
    expect(error).toMatchObject({ errorText: expect.stringMatching(/^LLM_AUTH: /) });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });

  it('a call refused before it ran: result rejects, the events end with its error, nothing unhandled', async () => {
    const { runtime } = runtimeWith([]);
    const stream = runtime.stream({ conversationId: '../bad', userInput: 'Hi' });
    const events = await collect(stream);
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'INVALID_ID', fatal: true })]);
    await expect(stream.result).rejects.toSatisfy((error) => CairnError.is(error, 'INVALID_ID'));
    // Never awaited: an unhandled rejection would fail the run.
    runtime.stream({ userInput: '' });
  });

  it('an abort ends the UI stream with `abort` and the stored interruption', async () => {
    const controller = new AbortController();
    const { runtime, store } = runtimeWith([
      { text: 'a long answer that goes on', chunkSize: 2, chunkDelayMs: 20 },
    ]);
    const stream = runtime.stream({ conversationId: 'c6', userInput: 'Talk', signal: controller.signal });
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of stream.toUIMessageStream()) {
      chunks.push(chunk);
      if (chunk.type === 'text-delta') controller.abort();
    }
    expect(chunks.at(-1)).toMatchObject({ type: 'abort' });
    expect(chunks.some((chunk) => chunk.type === 'finish')).toBe(false);
    expect((await stream.result).finishReason).toBe('aborted');
    expect((await store.load('c6')).at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('the AI SDK reader builds the answer: step, reasoning, text, the dynamic tool with input and output, metadata', async () => {
    const { runtime } = runtimeWith(TOOL_TURNS);
    const stream = runtime.stream({ conversationId: 'c7', userInput: 'Weather in Oslo?' });
    const message = await lastMessage(stream.toUIMessageStream({ messageId: 'answer-1' }));
    expect(message?.id).toBe('answer-1');
    expect(message?.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'reasoning', text: 'The user wants the weather.', state: 'done' }),
      expect.objectContaining({ type: 'text', text: 'Checking.', state: 'done' }),
      expect.objectContaining({
        type: 'dynamic-tool',
        toolName: 'get_weather',
        toolCallId: 'c1',
        state: 'output-available',
        input: { city: 'Oslo' },
        output: 'Oslo: -3 °C',
      }),
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'It is -3 °C in Oslo.', state: 'done' }),
    ]);
    expect(message?.metadata).toMatchObject({
      conversationId: 'c7',
      model: 'scripted/scripted-model',
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
  });

  it('a model that does not stream: the stored answers become the text and the tool parts', async () => {
    const { runtime } = runtimeWith(
      [],
      new ScriptedModel({ turns: TOOL_TURNS, capabilities: { streaming: false } }),
    );
    const stream = runtime.stream({ conversationId: 'c9', userInput: 'Weather in Oslo?' });
    expect((await collect(stream.textStream)).join('|')).toBe('Checking.|It is -3 °C in Oslo.');
    const message = await lastMessage(stream.toUIMessageStream());
    expect(message?.parts.map((part) => part.type)).toEqual([
      'step-start',
      'text',
      'dynamic-tool',
      'step-start',
      'text',
    ]);
    expect(message?.parts[2]).toMatchObject({
      state: 'output-available',
      input: { city: 'Oslo' },
      output: 'Oslo: -3 °C',
    });
  });

  it('toUIMessageStreamResponse: SSE frames ending with [DONE] and the protocol headers', async () => {
    const { runtime } = runtimeWith([{ text: 'Hi.' }]);
    const response = runtime
      .stream({ conversationId: 'c8', userInput: 'Hello' })
      .toUIMessageStreamResponse({ headers: { 'x-extra': '1' } });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-vercel-ai-ui-message-stream': 'v1',
      'x-extra': '1',
    });
    const body = await response.text();
    const frames = body.split('\n\n').filter((frame) => frame !== '');
    expect(frames.every((frame) => frame.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(frames[0]?.slice(6) ?? '')).toMatchObject({
      type: 'start',
      messageMetadata: { conversationId: 'c8' },
    });
  });
});
