import { definedFields } from '@cairn/core';
import type { UIMessageChunk } from './ui-message-chunk.js';

/** The headers of the protocol, as the AI SDK sends them (`no-cache`, no proxy buffering). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

export interface UIMessageSseOptions {
  /**
   * Send an SSE comment (`: keep-alive`, which readers skip) this often, so proxies that close idle
   * connections keep a turn open through a long tool run. Default: none.
   */
  keepAliveMs?: number;
}

/** Each chunk as a server-sent event `data: <json>`, then `data: [DONE]`. */
export function uiMessageChunksToSse(
  chunks: ReadableStream<UIMessageChunk>,
  options: UIMessageSseOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const reader = chunks.getReader();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stopKeepAlive = () => clearInterval(timer);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const { keepAliveMs } = options;
      if (keepAliveMs === undefined) return;
      timer = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), keepAliveMs);
      // A timer must not keep the process alive on its own.
      timer.unref?.();
    },
    async pull(controller) {
      const next = await reader.read().catch((error: unknown) => {
        stopKeepAlive();
        throw error;
      });
      if (next.done) {
        stopKeepAlive();
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel(reason) {
      stopKeepAlive();
      await reader.cancel(reason);
    },
  });
}

/** A web `Response` streaming `chunks` in the protocol; `init` adds headers or sets the status. */
export function createUIMessageStreamResponse(
  chunks: ReadableStream<UIMessageChunk>,
  init: ResponseInit & UIMessageSseOptions = {},
): Response {
  const { keepAliveMs, ...responseInit } = init;
  const headers = new Headers(responseInit.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  const body = uiMessageChunksToSse(chunks, definedFields({ keepAliveMs }));
  return new Response(body, { ...responseInit, status: responseInit.status ?? 200, headers });
}
