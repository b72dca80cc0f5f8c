import { describe, expect, it } from 'vitest';
import { createGeminiStreamTail } from './gemini-stream-tail.js';

const sse = (...events: string[]) => events.map((data) => `data: ${data}\r\n\r\n`).join('');

/** A fetch answering with `body` in pieces of `size` characters. */
const answering =
  (body: string, size: number, status = 200): typeof fetch =>
  async () => {
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
        controller.close();
      },
    });
    return new Response(stream, { status, headers: { 'content-type': 'text/event-stream' } });
  };

describe('createGeminiStreamTail', () => {
  it('passes the bytes through unchanged and finds the event that is not JSON', async () => {
    const body = sse('{"a":1}', '{"oops": not json', '{"b":2}');
    for (const size of [1, 7, body.length]) {
      const tail = createGeminiStreamTail(answering(body, size));
      const response = await tail.fetch('https://example.test');
      expect(await response.text()).toBe(body);
      expect(tail.malformedData()).toBe('{"oops": not json');
    }
  });

  it('knows of no malformed event in a good stream, and leaves error answers alone', async () => {
    const tail = createGeminiStreamTail(answering(sse('{"a":1}'), 3));
    await (await tail.fetch('https://example.test')).text();
    expect(tail.malformedData()).toBeUndefined();
    const failed = createGeminiStreamTail(answering('not json', 3, 500));
    expect(await (await failed.fetch('https://example.test')).text()).toBe('not json');
    expect(failed.malformedData()).toBeUndefined();
  });
});
