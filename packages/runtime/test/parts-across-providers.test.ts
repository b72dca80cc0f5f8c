// Issue P's "done when", in one process and on every store (the memory store included, which no
// second process can open): a conversation with an image and a PDF goes to OpenAI's, Anthropic's
// and Gemini's real adapters in turn — each against its mock, which refuses a request breaking the
// vendor's part rules — with the conversation reopened from the store before each provider.
import { createFilePart, createImagePart, type ModelAdapter } from '@cairn/core';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { type MockProvider, startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

// A 1×1 PNG and a one-page PDF, real files.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
// Big enough that the store keeps both as blobs, not inline.
const IMAGE = Buffer.concat([PNG, Buffer.alloc(8000)]);

const adapters: Record<MockProvider, (baseURL: string) => ModelAdapter> = {
  openai: (baseURL) => createOpenAIAdapter({ model: 'gpt-4.1-mini', baseURL, apiKey: 'sk-test' }),
  anthropic: (baseURL) => createAnthropicAdapter({ model: 'claude-sonnet-5-5', baseURL, apiKey: 'sk-test' }),
  gemini: (baseURL) => createGeminiAdapter({ model: 'gemini-2.5-flash', baseURL, apiKey: 'sk-test' }),
};

describe.each(STORE_BACKENDS)('an image and a PDF on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('reach OpenAI, Anthropic and Gemini in their wire shapes, the store reopened before each', async () => {
    const image = createImagePart(IMAGE, { fileName: 'dot.png' });
    const pdf = createFilePart(PDF, { mediaType: 'application/pdf', fileName: 'page.pdf' });
    const imageData = IMAGE.toString('base64');
    const pdfData = PDF.toString('base64');
    const wire: Record<MockProvider, string[]> = {
      openai: [`data:image/png;base64,${imageData}`, `data:application/pdf;base64,${pdfData}`],
      anthropic: [
        `"media_type":"image/png","data":"${imageData}"`,
        `"media_type":"application/pdf","data":"${pdfData}"`,
      ],
      gemini: [
        `"mimeType":"image/png","data":"${imageData}"`,
        `"mimeType":"application/pdf","data":"${pdfData}"`,
      ],
    };
    let conversationId: string | undefined;
    for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
      const server = await startMockProviderServer({ provider, turns: [{ text: `Seen by ${provider}.` }] });
      try {
        const runtime = createAgentRuntime({
          store: open(),
          model: adapters[provider](server.baseURL),
          settings: { compression: false },
        });
        const result = await runtime.chat({
          ...(conversationId === undefined ? {} : { conversationId }),
          userInput:
            conversationId === undefined
              ? [{ type: 'text', text: 'What are these?' }, image, pdf]
              : 'And now?',
        });
        expect(result.error).toBeUndefined();
        expect(result.text).toBe(`Seen by ${provider}.`);
        conversationId = result.conversationId;
        const body = JSON.stringify(server.requests.at(-1)?.body);
        for (const expected of wire[provider]) {
          expect(body.includes(expected), `${provider} got ${expected.slice(0, 60)}…`).toBe(true);
        }
      } finally {
        await server.close();
      }
    }
    const log = await open().load(conversationId as string);
    expect(JSON.stringify(log).length).toBeLessThan(10_000);
  });
});
