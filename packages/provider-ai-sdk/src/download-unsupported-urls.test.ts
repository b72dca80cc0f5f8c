import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelMessage } from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadUnsupportedUrls, isUrlSupported } from './download-unsupported-urls.js';

const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
let origin = '';
const server = createServer((request, response) => {
  if (request.url === '/dot.png') response.end(BYTES);
  else response.writeHead(404).end();
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const imageAt = (url: string) => ({
  type: 'image' as const,
  mediaType: 'image/png',
  source: { type: 'url' as const, url },
});

describe('isUrlSupported', () => {
  it("follows the AI SDK's rule: media type patterns, then the URL patterns", () => {
    const supported = { 'image/*': [/^https:\/\/cdn\.example\.com\//], 'application/pdf': [/^https:/] };
    expect(isUrlSupported('image/png', 'https://cdn.example.com/a.png', supported)).toBe(true);
    expect(isUrlSupported('image/png', 'https://elsewhere.com/a.png', supported)).toBe(false);
    expect(isUrlSupported('application/pdf', 'https://x.com/a.pdf', supported)).toBe(true);
    expect(isUrlSupported('text/plain', 'https://x.com/a.txt', supported)).toBe(false);
    expect(isUrlSupported('text/plain', 'https://x.com/a.txt', { '*': [/./g] })).toBe(true);
  });
});

describe('downloadUnsupportedUrls', () => {
  it('downloads an image the model does not fetch itself; keeps the ones it does and the rest as they are', async () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'Hi' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          imageAt(`${origin}/dot.png`),
          imageAt('https://cdn.example.com/b.png'),
        ],
      },
    ];
    const result = await downloadUnsupportedUrls(messages, { 'image/*': [/^https:\/\/cdn\.example\.com\//] });
    expect(result[0]).toBe(messages[0]);
    expect(result[1]?.content).toEqual([
      { type: 'text', text: 'Look:' },
      { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: BYTES.toString('base64') } },
      imageAt('https://cdn.example.com/b.png'),
    ]);
  });

  it('a URL that cannot be downloaded is UNSUPPORTED_CONTENT naming it', async () => {
    const url = `${origin}/missing.png`;
    await expect(
      downloadUnsupportedUrls([{ role: 'user', content: [imageAt(url)] }], {}),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT', details: { url, mediaType: 'image/png' } });
  });
});
