import {
  type AgentOutput,
  AgentOutputSchema,
  base64ToBytes,
  contentText,
  createImagePart,
  type ModelAdapter,
} from '@cairn/core';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter, createOpenAIResponsesAdapter } from '@cairn/provider-openai';
import {
  type MockProviderServer,
  type MockServerProvider,
  ScriptedModel,
  startMockProviderServer,
} from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatToolLoop } from './chat-tool-loop.js';
import type { LoopToolMessage } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

// A tool whose result is an image the model must see (a browser's screenshot): each real adapter
// sends it where its API documents tool-result images, and the enforcing mock of that API accepts it.

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';

const screenshotTool = defineTool({
  name: 'screenshot',
  description: 'A screenshot of the page',
  category: 'web',
  input: z.object({ url: z.string() }),
  execute: ({ url }) => ({ url, png: PNG }),
  toModelOutput: ({ url, png }) => [
    { type: 'text', text: `Screenshot of ${url}` },
    createImagePart(base64ToBytes(png), { fileName: 'page.png' }),
  ],
});

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// The request body as sent, read by path: `at(body, 'messages', 0, 'role')`.
const at = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>(
    (current, key) =>
      typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined,
    value,
  );
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
// The first item of a list whose `key` is `expected` (`undefined`: whose `key` is there at all).
const item = (value: unknown, key: string, expected?: unknown) =>
  list(value).find((each) =>
    expected === undefined ? at(each, key) !== undefined : at(each, key) === expected,
  );

// Where each API documents a tool result's image, read from the request body as sent.
const cases: Record<
  string,
  {
    provider: MockServerProvider;
    adapter: (baseURL: string) => ModelAdapter;
    image: (body: unknown) => unknown;
  }
> = {
  // Chat Completions takes no image in a tool message: it follows the tool run as one user message.
  'OpenAI Chat Completions': {
    provider: 'openai',
    adapter: (baseURL) => createOpenAIAdapter({ model: 'gpt-4.1', baseURL, apiKey: 'sk-test' }),
    image: (body) => {
      const messages = list(at(body, 'messages'));
      const tool = messages.findIndex((message) => at(message, 'role') === 'tool');
      expect(at(messages[tool], 'content')).toContain('Screenshot of https://example.com');
      expect(at(messages[tool + 1], 'role')).toBe('user');
      return at(item(at(messages[tool + 1], 'content'), 'type', 'image_url'), 'image_url', 'url');
    },
  },
  'OpenAI Responses': {
    provider: 'openai-responses',
    adapter: (baseURL) => createOpenAIResponsesAdapter({ model: 'gpt-4.1', baseURL, apiKey: 'sk-test' }),
    image: (body) => {
      const output = at(item(at(body, 'input'), 'type', 'function_call_output'), 'output');
      expect(output).toContainEqual({ type: 'input_text', text: 'Screenshot of https://example.com' });
      return at(item(output, 'type', 'input_image'), 'image_url');
    },
  },
  Anthropic: {
    provider: 'anthropic',
    adapter: (baseURL) => createAnthropicAdapter({ model: 'claude-test', baseURL, apiKey: 'sk-test' }),
    image: (body) => {
      const blocks = list(at(body, 'messages')).flatMap((message) => list(at(message, 'content')));
      const content = at(item(blocks, 'type', 'tool_result'), 'content');
      expect(content).toContainEqual({ type: 'text', text: 'Screenshot of https://example.com' });
      const source = at(item(content, 'type', 'image'), 'source');
      return `data:${at(source, 'media_type')};base64,${at(source, 'data')}`;
    },
  },
  'Gemini 3': {
    provider: 'gemini',
    adapter: (baseURL) => createGeminiAdapter({ model: 'gemini-3-pro-preview', baseURL, apiKey: 'test-key' }),
    image: (body) => {
      const parts = list(at(body, 'contents')).flatMap((content) => list(at(content, 'parts')));
      const response = at(item(parts, 'functionResponse'), 'functionResponse');
      const data = at(item(at(response, 'parts'), 'inlineData'), 'inlineData');
      return `data:${at(data, 'mimeType')};base64,${at(data, 'data')}`;
    },
  },
};

describe.each(Object.keys(cases))('chatToolLoop: a tool returning an image, with %s', (name) => {
  const { provider, adapter, image } = cases[name] as (typeof cases)[string];

  it('sends the image where the API takes it, and the API accepts the request', async () => {
    server = await startMockProviderServer({
      provider,
      turns: [
        { toolCalls: [{ name: 'screenshot', arguments: { url: 'https://example.com' } }] },
        { text: 'A white page.' },
      ],
    });
    const handed: LoopToolMessage[] = [];
    const events: AgentOutput[] = [];
    const result = await chatToolLoop({
      model: adapter(server.baseURL),
      tools: createToolHost([screenshotTool]),
      messages: [{ role: 'user', content: 'What does example.com look like?' }],
      onToolMessage: (message) => void handed.push(message),
      onEvent: (event) => void events.push(event),
    });
    expect(result.error).toBeUndefined();
    expect(result.message?.content).toBe('A white page.');
    // Two requests: none refused by the mock's rules.
    expect(server.requests).toHaveLength(2);
    expect(image(server.requests[1]?.body)).toBe(`data:image/png;base64,${PNG}`);
    const parts = [
      { type: 'text', text: 'Screenshot of https://example.com' },
      createImagePart(base64ToBytes(PNG), { fileName: 'page.png' }),
    ];
    // The persister gets the parts whole, to store.
    expect(handed[0]?.content).toEqual(parts);
    // The event: text for text-only views, and the parts (a valid AgentOutput).
    const event = events.find((each) => each.type === 'tool_result');
    expect(AgentOutputSchema.parse(event)).toMatchObject({
      output: 'Screenshot of https://example.com\n[image: page.png]',
      content: parts,
      structured: { url: 'https://example.com', png: PNG },
    });
  });
});

describe('chatToolLoop: a tool returning an image, with a model that takes text only', () => {
  it('sends a note of the image instead of failing the turn, and hands the same to the persister', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [{ name: 'screenshot', arguments: { url: 'https://example.com' } }] },
        { text: 'I cannot see it.' },
      ],
    });
    const handed: LoopToolMessage[] = [];
    const result = await chatToolLoop({
      // An OpenAI model the adapter does not know to take images: text only.
      model: createOpenAIAdapter({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test' }),
      tools: createToolHost([screenshotTool]),
      messages: [{ role: 'user', content: 'What does example.com look like?' }],
      onToolMessage: (message) => void handed.push(message),
    });
    expect(result.error).toBeUndefined();
    const note = [
      { type: 'text', text: 'Screenshot of https://example.com' },
      { type: 'text', text: '[image: page.png] (not shown: this model cannot take image/png)' },
    ];
    expect(handed[0]?.content).toEqual(note);
    expect(at(item(at(server.requests[1]?.body, 'messages'), 'role', 'tool'), 'content')).toBe(
      'Screenshot of https://example.com\n[image: page.png] (not shown: this model cannot take image/png)',
    );
  });
});

describe('chatToolLoop: maxToolResultChars and a result of parts', () => {
  it('cuts the text parts and keeps the image', async () => {
    const model = new ScriptedModel({
      turns: [{ toolCalls: [{ id: 'c1', name: 'page', arguments: {} }] }, { text: 'Long page.' }],
      capabilities: { inputMediaTypes: ['image/*'] },
    });
    const image = createImagePart(base64ToBytes(PNG));
    const page = defineTool({
      name: 'page',
      description: 'The page text and a screenshot',
      category: 'web',
      input: z.object({}),
      execute: () => ({ text: 'word '.repeat(10_000) }),
      toModelOutput: ({ text }) => [{ type: 'text', text }, image],
    });
    const result = await chatToolLoop({
      model,
      tools: createToolHost([page]),
      messages: [{ role: 'user', content: 'Read the page' }],
      maxToolResultChars: 2_000,
    });
    expect(result.error).toBeUndefined();
    const sent = model.requests[1]?.messages.find((message) => message.role === 'tool')?.content;
    expect(sent).toEqual([{ type: 'text', text: expect.stringContaining('[Output cut: the first') }, image]);
    expect(contentText(sent).length).toBeLessThanOrEqual(2_000);
  });
});
