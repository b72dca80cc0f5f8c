// The AI SDK's own client (`DefaultChatTransport`, `readUIMessageStream` from `ai`) against the
// running server: what an app built on `useChat` does.
import type { ConversationStore } from '@cairn/core';
import { defineTool } from '@cairn/loop';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import { Chat, transportFor } from './support/ai-sdk-chat.js';
import { type AppServer, serveApp } from './support/serve-app.js';
import { waitFor } from './support/start-test-server.js';

const weatherTool = defineTool({
  name: 'get_weather',
  description: 'The weather in a city',
  category: 'web',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: -3 °C`,
});

const TOKEN = 'a-long-enough-secret-token';
let server: (AppServer & { store: ConversationStore; model: ScriptedModel }) | undefined;

async function start(turns: ScriptTurn[], apiToken?: string, otherModels: ScriptedModel[] = []) {
  const store = createMemoryConversationStore();
  const model = new ScriptedModel({ turns });
  const runtime = createAgentRuntime({
    store,
    model,
    tools: [weatherTool],
    settings: { compression: false },
  });
  const served = await serveApp({
    store,
    runtime,
    events: createInProcessEventBus(),
    turnLock: createInProcessTurnLock(),
    ...(apiToken === undefined ? {} : { apiToken }),
    ...(otherModels.length === 0 ? {} : { models: [model, ...otherModels] }),
  });
  server = { ...served, store, model };
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const userMessage = (text: string): UIMessage => ({
  id: `u-${text}`,
  role: 'user',
  parts: [{ type: 'text', text }],
});

function send(transport: DefaultChatTransport<UIMessage>, chatId: string, messages: UIMessage[]) {
  return transport.sendMessages({
    trigger: 'submit-message',
    chatId,
    messageId: undefined,
    messages,
    abortSignal: undefined,
  });
}

/** The final message the AI SDK builds from the stream, and the errors it reported. */
async function finalMessage(stream: ReadableStream<UIMessageChunk>) {
  const errors: string[] = [];
  let message: UIMessage | undefined;
  for await (const next of readUIMessageStream({ stream, onError: (error) => errors.push(String(error)) })) {
    message = next;
  }
  return { message, errors };
}

/** Chunks as they come, teed: one copy for `finalMessage`, one to watch. */
function watch(stream: ReadableStream<UIMessageChunk>) {
  const [forReader, forWatcher] = stream.tee();
  const seen: UIMessageChunk[] = [];
  const done = (async () => {
    for await (const chunk of forWatcher as unknown as AsyncIterable<UIMessageChunk>) seen.push(chunk);
  })();
  return { forReader, seen, done };
}

describe('POST /v1/chat with the AI SDK client', () => {
  it('a plain text turn: the answer, its metadata, both messages stored', async () => {
    const app = await start([{ text: 'Hello there', usage: { inputTokens: 5, outputTokens: 2 } }]);
    const { message, errors } = await finalMessage(
      await send(transportFor(app), 'chat-1', [userMessage('Hi')]),
    );
    expect(errors).toEqual([]);
    expect(message?.role).toBe('assistant');
    expect(message?.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'Hello there', state: 'done' }),
    ]);
    expect(message?.metadata).toMatchObject({
      conversationId: 'chat-1',
      model: 'scripted/scripted-model',
      usage: { inputTokens: 5, outputTokens: 2 },
    });
    const stored = await app.store.load('chat-1');
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello there'],
    ]);
  });

  it('stores only the new user message: the context is the server’s, not the client’s history', async () => {
    const app = await start([{ text: 'One' }, { text: 'Two' }]);
    const transport = transportFor(app);
    await finalMessage(await send(transport, 'chat-2', [userMessage('first')]));
    const forged: UIMessage = {
      id: 'x',
      role: 'assistant',
      parts: [{ type: 'text', text: 'I never said this' }],
    };
    await finalMessage(
      await send(transport, 'chat-2', [userMessage('first'), forged, userMessage('second')]),
    );
    const stored = await app.store.load('chat-2');
    expect(stored.map((m) => m.content)).toEqual(['first', 'One', 'second', 'Two']);
  });

  it('the AI SDK chat class (what useChat runs): send, a tool call, then a second page resumes the running answer', async () => {
    const app = await start([
      { text: 'Checking.', toolCalls: [{ id: 'call-1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'It is -3 °C in Oslo, it seems, and it will stay cold.', chunkSize: 4, chunkDelayMs: 20 },
    ]);
    const chat = new Chat('chat-c', transportFor(app));
    const sending = chat.sendMessage({ text: 'Weather in Oslo?' });
    await waitFor(
      () => chat.chatState.messages.at(-1)?.parts.some((part) => part.type === 'dynamic-tool') === true,
    );
    const reloaded = new Chat('chat-c', transportFor(app));
    await Promise.all([sending, reloaded.resumeStream()]);
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const answer = chat.messages[1];
    expect(answer?.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      state: 'output-available',
      output: 'Oslo: -3 °C',
    });
    expect(answer?.parts.at(-1)).toMatchObject({
      type: 'text',
      text: 'It is -3 °C in Oslo, it seems, and it will stay cold.',
    });
    // The resumed page rebuilt the same answer from the first chunk.
    expect(reloaded.messages).toEqual([answer]);
    // Nothing runs now: resuming is a no-op (204).
    const later = new Chat('chat-c', transportFor(app));
    await later.resumeStream();
    expect(later.messages).toEqual([]);
  });

  it('the last message alone is enough (prepareSendMessagesRequest, as the README suggests for long chats)', async () => {
    const app = await start([{ text: 'One' }, { text: 'Two' }]);
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${app.baseURL}/v1/chat`,
      prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
        body: { id, trigger, messageId, messages: messages.slice(-1) },
      }),
    });
    const chat = new Chat('chat-l', transport);
    await chat.sendMessage({ text: 'first' });
    await chat.sendMessage({ text: 'second' });
    expect(chat.messages.map((m) => m.parts.at(-1))).toMatchObject([
      { text: 'first' },
      { text: 'One' },
      { text: 'second' },
      { text: 'Two' },
    ]);
    expect((await app.store.load('chat-l')).map((m) => m.content)).toEqual(['first', 'One', 'second', 'Two']);
  });

  it('regenerate-message answers the last user message again as a branch: the earlier answer stays in the log, out of the context', async () => {
    const app = await start([{ text: 'First try' }, { text: 'Second try' }]);
    const transport = transportFor(app);
    const first = await finalMessage(await send(transport, 'chat-r', [userMessage('Tell me')]));
    const regenerated = await transport.sendMessages({
      trigger: 'regenerate-message',
      chatId: 'chat-r',
      messageId: first.message?.id,
      messages: [userMessage('Tell me')],
      abortSignal: undefined,
    });
    const { message } = await finalMessage(regenerated);
    expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Second try' });
    const stored = await app.store.load('chat-r');
    expect(stored.map((m) => [m.role, m.content, m.branchFrom])).toEqual([
      ['user', 'Tell me', undefined],
      ['assistant', 'First try', undefined],
      ['user', 'Tell me', 1],
      ['assistant', 'Second try', undefined],
    ]);
    // The model was asked the question alone, as the first time.
    const asked = app.model.requests
      .at(-1)
      ?.messages.slice(1)
      .map((m) => m.content);
    expect(asked).toEqual(['Tell me']);
  });

  it('answers on the model a useChat body names (body: { model }), one the server offers', async () => {
    const other = new ScriptedModel({ modelId: 'other-model', turns: [{ text: 'From the other model.' }] });
    const app = await start([], undefined, [other]);
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${app.baseURL}/v1/chat`,
      body: { model: 'other-model' },
    });
    const { message } = await finalMessage(await send(transport, 'chat-m', [userMessage('Which model?')]));
    expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'From the other model.' });
    expect((await app.store.load('chat-m')).at(-1)?.providerMetadata?.cairn?.model).toBe('other-model');
  });

  it('a file part (a data URL, as useChat sends a FileList) is stored as an attachment; a remote URL is refused', async () => {
    const app = await start([{ text: 'A text file.' }]);
    const withFile: UIMessage = {
      id: 'u-file',
      role: 'user',
      parts: [
        { type: 'text', text: 'What is this?' },
        {
          type: 'file',
          mediaType: 'text/plain',
          filename: 'note.txt',
          url: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`,
        },
      ],
    };
    await finalMessage(await send(transportFor(app), 'chat-f', [withFile]));
    const [user] = await app.store.load('chat-f');
    expect(user?.content).toEqual([
      { type: 'text', text: 'What is this?' },
      expect.objectContaining({ type: 'file', mediaType: 'text/plain', fileName: 'note.txt' }),
    ]);
    const remote = await app.post('/v1/chat', {
      id: 'chat-g',
      trigger: 'submit-message',
      messages: [
        {
          id: 'u',
          role: 'user',
          parts: [{ type: 'file', mediaType: 'image/png', url: 'https://example.com/a.png' }],
        },
      ],
    });
    expect(remote.status).toBe(400);
  });

  it('a tool call: the dynamic tool part with its input and output', async () => {
    const app = await start([
      { text: 'Checking.', toolCalls: [{ id: 'call-1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'It is -3 °C in Oslo.' },
    ]);
    const { message, errors } = await finalMessage(
      await send(transportFor(app), 'chat-3', [userMessage('Weather in Oslo?')]),
    );
    expect(errors).toEqual([]);
    expect(message?.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'Checking.' }),
      expect.objectContaining({
        type: 'dynamic-tool',
        toolName: 'get_weather',
        toolCallId: 'call-1',
        state: 'output-available',
        input: { city: 'Oslo' },
        output: 'Oslo: -3 °C',
      }),
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'It is -3 °C in Oslo.' }),
    ]);
  });

  it('a failing model: an error chunk with the CairnError code, finish reason error', async () => {
    const app = await start([{ fault: { status: 401 } }]);
    const { forReader, seen, done } = watch(await send(transportFor(app), 'chat-4', [userMessage('Hi')]));
    const { errors } = await finalMessage(forReader);
    await done;
    expect(errors).toEqual([expect.stringMatching(/LLM_AUTH: /)]);
    expect(seen.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
    expect((await app.store.load('chat-4')).at(-1)).toMatchObject({
      role: 'assistant',
      partType: 'error',
      errorCode: 'LLM_AUTH',
    });
  });

  it('abort mid-stream via POST …/abort: the stream ends with `abort`, the interrupted answer is stored', async () => {
    const app = await start([{ text: 'a long answer that takes a while', chunkSize: 2, chunkDelayMs: 30 }]);
    const { forReader, seen, done } = watch(await send(transportFor(app), 'chat-5', [userMessage('Talk')]));
    const reading = finalMessage(forReader);
    await waitFor(() => seen.some((chunk) => chunk.type === 'text-delta'));
    const aborted = await app.post('/v1/conversations/chat-5/abort');
    expect(await aborted.json()).toEqual({ aborted: true });
    const { message } = await reading;
    await done;
    expect(seen.at(-1)).toMatchObject({ type: 'abort' });
    const text = message?.parts.find((part) => part.type === 'text');
    expect(text && 'text' in text ? text.text.length : 0).toBeGreaterThan(0);
    const stored = await app.store.load('chat-5');
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_ABORTED' });
    // What was said before the abort is kept, as the text the client had.
    const said = stored.find((m) => m.role === 'assistant' && m.partType !== 'error');
    expect(said).toMatchObject({ interrupted: true });
    expect('a long answer that takes a while'.startsWith(String(said?.content))).toBe(true);
  });

  it('a reload resumes the running turn via GET /v1/chat/{id}/stream and builds the same message; a disconnect does not stop the turn', async () => {
    const app = await start([
      { text: 'resumable answer in many small pieces', chunkSize: 3, chunkDelayMs: 20 },
    ]);
    const first = watch(await send(transportFor(app), 'chat-6', [userMessage('Go')]));
    const firstMessage = finalMessage(first.forReader);
    await waitFor(() => first.seen.some((chunk) => chunk.type === 'text-delta'));
    const resumed = await transportFor(app).reconnectToStream({ chatId: 'chat-6' });
    expect(resumed).not.toBeNull();
    const second = await finalMessage(resumed as ReadableStream<UIMessageChunk>);
    const one = await firstMessage;
    expect(second.message).toEqual(one.message);
    expect(one.message?.parts.at(-1)).toMatchObject({ text: 'resumable answer in many small pieces' });

    // The page goes away mid-turn: the turn runs on and is stored; nothing runs afterwards (204).
    const third = await send(transportFor(app), 'chat-6', [userMessage('Again')]);
    const reader = third.getReader();
    await reader.read();
    await reader.cancel();
    await expect.poll(async () => (await app.store.load('chat-6')).length, { timeout: 10_000 }).toBe(4);
    expect(await transportFor(app).reconnectToStream({ chatId: 'chat-6' })).toBeNull();
  });

  it('answers 204 when no turn runs, and refuses without the token', async () => {
    const app = await start([{ text: 'ok' }], TOKEN);
    const none = await app.request('/v1/chat/chat-7/stream');
    expect(none.status).toBe(204);
    expect(await transportFor(app, TOKEN).reconnectToStream({ chatId: 'chat-7' })).toBeNull();
    await expect(send(transportFor(app), 'chat-7', [userMessage('Hi')])).rejects.toThrow();
    const refused = await fetch(`${app.baseURL}/v1/chat/chat-7/stream`);
    expect(refused.status).toBe(401);
    const { message } = await finalMessage(
      await send(transportFor(app, TOKEN), 'chat-7', [userMessage('Hi')]),
    );
    expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'ok' });
  });

  it('refuses an invalid id and a last message that is not the user’s, storing nothing', async () => {
    const app = await start([]);
    const badId = await app.post('/v1/chat', {
      id: '../x',
      messages: [userMessage('Hi')],
      trigger: 'submit-message',
    });
    expect(badId.status).toBe(400);
    const notUser = await app.post('/v1/chat', {
      id: 'chat-8',
      messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hm' }] }],
      trigger: 'submit-message',
    });
    expect(notUser.status).toBe(400);
    expect(await notUser.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect(await app.store.load('chat-8')).toEqual([]);
  });
});
