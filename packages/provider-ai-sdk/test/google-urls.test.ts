import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { startMockProviderServer } from '@cairn/testing';
import { afterEach, expect, it } from 'vitest';
import { createAiSdkAdapter } from '../src/index.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

it('an image URL Gemini does not fetch itself is downloaded and sent inline, as generateText would', async () => {
  const files = createServer((_request, response) => response.end(PNG));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => files.close(() => resolve())));
  const server = await startMockProviderServer({ provider: 'gemini', turns: [{ text: 'A red dot.' }] });
  closers.push(() => server.close());
  const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/dot.png`;

  const model = createAiSdkAdapter(
    createGoogleGenerativeAI({ baseURL: `${server.baseURL}/v1beta`, apiKey: 'k' })('gemini-2.5-flash'),
  );
  const result = await model.generate({
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', mediaType: 'image/png', source: { type: 'url', url } },
        ],
      },
    ],
  });
  expect(result.message.content).toBe('A red dot.');
  const body = server.requests[0]?.body as { contents: Array<{ parts: unknown[] }> } | undefined;
  expect(body?.contents[0]?.parts).toEqual([
    { text: 'What is this?' },
    { inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } },
  ]);
});
