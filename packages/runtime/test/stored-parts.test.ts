import { randomBytes } from 'node:crypto';
import {
  CairnError,
  type ContentPart,
  type ConversationStore,
  createImagePart,
  isMediaPart,
  type ModelMessage,
} from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';
import { weatherTool } from './weather-tool.js';

// A PNG: its signature and an IHDR header (1024×768), then noise (the sniffers read only the header).
function png(size: number): Uint8Array {
  const bytes = randomBytes(size);
  bytes.set([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0, 0, 0, 3,
    0,
  ]);
  return bytes;
}

// The image parts of a request's user messages, as the adapter received them.
const sentImages = (messages: readonly ModelMessage[]): ContentPart[] =>
  messages.flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content)
      ? message.content.filter((part) => part.type === 'image')
      : [],
  );

const base64Of = (part: ContentPart | undefined) =>
  part !== undefined && isMediaPart(part) && part.source.type === 'base64' ? part.source.data : undefined;

// The store, except that every blob is gone.
const withoutBlobs = (store: ConversationStore): ConversationStore =>
  new Proxy(store, {
    get(target, property) {
      if (property === 'getBlob')
        return async (ref: string) => {
          throw new CairnError('STORE_NOT_FOUND', `no blob ${ref}`);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

describe.each(STORE_BACKENDS)('stored image parts on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('keeps a 1 MB image out of the log and sends its bytes on every turn, after a reload too', async () => {
    const bytes = png(1024 * 1024);
    const original = Buffer.from(bytes).toString('base64');
    const model = new ScriptedModel({
      turns: [{ text: 'A chart.' }, { text: 'Still a chart.' }, { text: 'Yes, the same chart.' }],
    });
    const store = open();
    const runtime = createAgentRuntime({ store, model, settings: { compression: false } });
    const first = await runtime.chat({
      userInput: [{ type: 'text', text: 'What is this?' }, createImagePart(bytes, { fileName: 'chart.png' })],
    });
    expect(first.success).toBe(true);
    const { conversationId } = first;
    const log = await store.load(conversationId);
    // The log holds a reference: the bytes are a blob.
    expect(JSON.stringify(log).length).toBeLessThan(10_000);
    expect((log[0]?.content as ContentPart[] | undefined)?.[1]).toMatchObject({
      type: 'image',
      fileName: 'chart.png',
      source: { type: 'blob', size: bytes.length },
    });

    const second = await runtime.chat({ conversationId, userInput: 'And now?' });
    expect(second.success).toBe(true);
    // A new runtime on a store opened again: all it has is what was stored.
    const reloaded = createAgentRuntime({ store: open(), model, settings: { compression: false } });
    const third = await reloaded.chat({ conversationId, userInput: 'Sure?' });
    expect(third.success).toBe(true);

    expect(model.requests).toHaveLength(3);
    for (const request of model.requests) {
      const images = sentImages(request.messages);
      expect(images).toHaveLength(1);
      expect(base64Of(images[0])).toBe(original);
    }
  });

  it('reads a part once per turn, however many model calls the turn makes', async () => {
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { toolCalls: [{ id: 'c2', name: 'get_weather', arguments: { city: 'Bergen' } }] },
        { text: 'Both are cold.' },
      ],
    });
    const store = open();
    let reads = 0;
    const counting = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === 'getBlob') reads++;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runtime = createAgentRuntime({
      store: counting,
      model,
      tools: [weatherTool],
      settings: { compression: false },
    });
    const result = await runtime.chat({
      userInput: [{ type: 'text', text: 'Weather where this was taken?' }, createImagePart(png(100_000))],
    });
    expect(result.success).toBe(true);
    expect(
      model.requests.map((request) => sentImages(request.messages).map(base64Of).filter(Boolean).length),
    ).toEqual([1, 1, 1]);
    expect(reads).toBe(1);
  });

  it('fails the turn with STORE_NOT_FOUND, stored as its error, when the bytes are gone', async () => {
    const model = new ScriptedModel({ turns: [{ text: 'A chart.' }, { text: 'unused' }] });
    const store = open();
    const runtime = createAgentRuntime({ store, model, settings: { compression: false } });
    const first = await runtime.chat({
      userInput: [{ type: 'text', text: 'What is this?' }, createImagePart(png(200_000))],
    });
    const broken = createAgentRuntime({
      store: withoutBlobs(store),
      model,
      settings: { compression: false },
    });
    const second = await broken.chat({ conversationId: first.conversationId, userInput: 'And now?' });
    expect(second).toMatchObject({ success: false, finishReason: 'error' });
    expect(second.error?.code).toBe('STORE_NOT_FOUND');
    expect(second.error?.message).toContain('missing from the store');
    expect(model.requests).toHaveLength(1);
    const log = await store.load(first.conversationId);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'STORE_NOT_FOUND' });
  });
});
