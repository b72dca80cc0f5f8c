import { randomBytes } from 'node:crypto';
import { type ContentPart, createImagePart, isMediaPart, type ModelMessage } from '@cairn/core';
import { defineTool } from '@cairn/loop';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from '../src/index.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

// A PNG: its signature and an IHDR header (640×480), then noise (the sniffers read only the header).
function png(size: number): Uint8Array {
  const bytes = randomBytes(size);
  bytes.set([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 0x80, 0, 0,
    1, 0xe0,
  ]);
  return bytes;
}

const SCREENSHOT = png(300_000);
const BASE64 = Buffer.from(SCREENSHOT).toString('base64');

// A browser tool: the model sees the page, the log keeps where it was taken.
const screenshotTool = defineTool({
  name: 'screenshot',
  description: 'A screenshot of a page',
  category: 'web',
  input: z.object({ url: z.string() }),
  execute: ({ url }) => ({ url, bytes: SCREENSHOT.length }),
  toModelOutput: ({ url }) => [
    { type: 'text', text: `Screenshot of ${url}` },
    createImagePart(SCREENSHOT, { fileName: 'page.png' }),
  ],
});

const toolMessage = (messages: readonly ModelMessage[]) =>
  messages.find((message) => message.role === 'tool');

const base64Of = (part: ContentPart | undefined) =>
  part !== undefined && isMediaPart(part) && part.source.type === 'base64' ? part.source.data : undefined;

describe.each(STORE_BACKENDS.filter((backend) => ['memory', 'fs'].includes(backend.name)))(
  'a tool result with an image on the $name store',
  (backend) => {
    const { open } = useStoreBackend(backend);

    it('stores the image as a blob and sends the same bytes in this turn and every later one', async () => {
      const model = new ScriptedModel({
        turns: [
          { toolCalls: [{ id: 'c1', name: 'screenshot', arguments: { url: 'https://example.com' } }] },
          { text: 'A white page.' },
          { text: 'Still white.' },
          { text: 'Yes, white.' },
        ],
        capabilities: { inputMediaTypes: ['image/*'] },
      });
      const store = open();
      const settings = { compression: false } as const;
      const runtime = createAgentRuntime({ store, model, tools: [screenshotTool], settings });
      const first = await runtime.chat({ userInput: 'What does example.com look like?' });
      expect(first.success).toBe(true);
      const { conversationId } = first;

      // The log holds a reference: the bytes are a blob, the text part and the structured result stay.
      const log = await store.load(conversationId);
      const stored = log.find((message) => message.role === 'tool');
      expect(JSON.stringify(log).length).toBeLessThan(10_000);
      expect(stored).toMatchObject({
        toolName: 'screenshot',
        content: [
          { type: 'text', text: 'Screenshot of https://example.com' },
          { type: 'image', fileName: 'page.png', source: { type: 'blob', size: SCREENSHOT.length } },
        ],
        structuredResult: { url: 'https://example.com', bytes: SCREENSHOT.length },
      });

      const second = await runtime.chat({ conversationId, userInput: 'And now?' });
      expect(second.success).toBe(true);
      // A new runtime on a store opened again: all it has is what was stored.
      const reloaded = createAgentRuntime({ store: open(), model, tools: [screenshotTool], settings });
      const third = await reloaded.chat({ conversationId, userInput: 'Sure?' });
      expect(third.success).toBe(true);

      // The call right after the tool ran, the next turn, and the turn after a reload: one reading.
      const [, afterTool, next, afterReload] = model.requests.map((request) => toolMessage(request.messages));
      const content = afterTool?.content as ContentPart[];
      expect(content[0]).toEqual({ type: 'text', text: 'Screenshot of https://example.com' });
      expect(base64Of(content[1])).toBe(BASE64);
      expect(next).toEqual(afterTool);
      expect(afterReload).toEqual(afterTool);
    });
  },
);

describe('a tool result of text on the memory store', () => {
  const { open } = useStoreBackend(STORE_BACKENDS[0] as (typeof STORE_BACKENDS)[number]);

  it('stays a string, byte for byte, in the log and in every request', async () => {
    const text = 'Oslo: -3 °C\n\t"quoted" \u{1F327}';
    const tool = defineTool({
      name: 'get_weather',
      description: 'The weather',
      category: 'web',
      input: z.object({}),
      execute: () => text,
    });
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: {} }] },
        { text: 'Cold.' },
        { text: 'Yes.' },
      ],
    });
    const store = open();
    const runtime = createAgentRuntime({ store, model, tools: [tool], settings: { compression: false } });
    const first = await runtime.chat({ userInput: 'Weather?' });
    await runtime.chat({ conversationId: first.conversationId, userInput: 'Sure?' });
    const log = await store.load(first.conversationId);
    expect(log.find((message) => message.role === 'tool')?.content).toBe(text);
    for (const request of model.requests.slice(1)) {
      expect(toolMessage(request.messages)).toEqual({ role: 'tool', tool_call_id: 'c1', content: text });
    }
  });
});
