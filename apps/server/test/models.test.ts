import type { ConversationMessage } from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBody } from './support/json-body.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const answeredBy = (message: ConversationMessage | undefined) => message?.providerMetadata?.cairn?.model;

describe('choosing a model per turn', () => {
  it('lists the models, default first, and runs a turn, a regeneration and a chat on the one named', async () => {
    const other = new ScriptedModel({
      modelId: 'other-model',
      turns: [{ text: 'Other says hi.' }, { text: 'Other again.' }, { text: 'Other chats.' }],
    });
    server = await startTestServer({ turns: [{ text: 'Default says hi.' }], otherModels: [other] });
    expect(await jsonBody(await server.request('/v1/models'))).toEqual({
      models: [
        { id: 'scripted-model', provider: 'scripted', default: true },
        { id: 'other-model', provider: 'scripted', default: false },
      ],
    });
    await server.postMessage('c1', 'Hi');
    const picked = await server.post('/v1/conversations/c1/messages?model=other-model', {
      content: 'Hi again',
    });
    expect(await jsonBody(picked)).toMatchObject({ success: true, message: { content: 'Other says hi.' } });
    const again = await server.request('/v1/conversations/c1/regenerate?model=other-model', {
      method: 'POST',
    });
    expect(await jsonBody(again)).toMatchObject({ success: true, message: { content: 'Other again.' } });
    const chat = await server.post('/v1/chat', {
      id: 'c2',
      model: 'other-model',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
    });
    await chat.text();
    const log = await server.store.load('c1');
    expect(log.filter((message) => message.role === 'assistant').map(answeredBy)).toEqual([
      'scripted-model',
      'other-model',
      'other-model',
    ]);
    const chatted = (await server.store.load('c2')).at(-1);
    expect([chatted?.content, answeredBy(chatted)]).toEqual(['Other chats.', 'other-model']);
    // The other model saw the whole conversation as it stood.
    expect(other.requests[0]?.messages.slice(1).map((message) => message.content)).toEqual([
      'Hi',
      'Default says hi.',
      'Hi again',
    ]);
  });

  it('refuses a model the server does not offer, storing nothing', async () => {
    server = await startTestServer({
      otherModels: [new ScriptedModel({ modelId: 'other-model', turns: [] })],
    });
    const refused = await server.post('/v1/conversations/c1/messages?model=gpt-unknown', { content: 'Hi' });
    expect(refused.status).toBe(400);
    expect(await jsonBody(refused)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('scripted-model, other-model') },
    });
    expect(await server.store.load('c1')).toEqual([]);
  });

  it('offers no choice when no models are configured', async () => {
    server = await startTestServer();
    expect(await jsonBody(await server.request('/v1/models'))).toEqual({ models: [] });
    const refused = await server.post('/v1/conversations/c1/messages?model=scripted-model', {
      content: 'Hi',
    });
    expect(refused.status).toBe(400);
  });
});
