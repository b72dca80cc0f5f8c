import { describe, expect, it } from 'vitest';
import type { UIMessageChunk } from './ui-message-chunk.js';
import { createUIMessageStreamResponse } from './ui-message-stream-response.js';

// A chunk stream the test ends when it says so.
function heldStream() {
  let end = () => {};
  let ended = false;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      controller.enqueue({ type: 'start' });
      end = () => {
        if (ended) return;
        ended = true;
        controller.enqueue({ type: 'finish' });
        controller.close();
      };
    },
  });
  return { stream, end: () => end() };
}

async function readUntil(
  body: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
  onText?: (text: string) => void,
) {
  const decoder = new TextDecoder();
  let text = '';
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(bytes, { stream: true });
    onText?.(text);
    if (done(text)) break;
  }
  return text;
}

describe('createUIMessageStreamResponse', () => {
  it('keeps an idle stream open with SSE comments, then ends with [DONE]', async () => {
    const { stream, end } = heldStream();
    const response = createUIMessageStreamResponse(stream, { keepAliveMs: 5, headers: { 'x-a': 'b' } });
    expect(response.headers.get('x-a')).toBe('b');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const text = await readUntil(
      response.body as ReadableStream<Uint8Array>,
      (sofar) => sofar.endsWith('data: [DONE]\n\n'),
      (sofar) => {
        if (sofar.includes(': keep-alive\n\n')) end();
      },
    );
    expect(text.startsWith('data: {"type":"start"}\n\n')).toBe(true);
    expect(text).toContain(': keep-alive\n\n');
    expect(text.endsWith('data: {"type":"finish"}\n\ndata: [DONE]\n\n')).toBe(true);
  });

  it('sends no comments without keepAliveMs', async () => {
    const { stream, end } = heldStream();
    const response = createUIMessageStreamResponse(stream);
    end();
    expect(await response.text()).toBe(
      'data: {"type":"start"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n',
    );
  });
});
