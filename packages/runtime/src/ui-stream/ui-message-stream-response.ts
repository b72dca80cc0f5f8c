import type { UIMessageChunk } from './ui-message-chunk.js';

/** The headers of the protocol, as the AI SDK sends them (`no-cache`, no proxy buffering). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** Each chunk as a server-sent event `data: <json>`, then `data: [DONE]`. */
export function uiMessageChunksToSse(chunks: ReadableStream<UIMessageChunk>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return chunks.pipeThrough(
    new TransformStream<UIMessageChunk, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
}

/** A web `Response` streaming `chunks` in the protocol; `init` adds headers or sets the status. */
export function createUIMessageStreamResponse(
  chunks: ReadableStream<UIMessageChunk>,
  init: ResponseInit = {},
): Response {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return new Response(uiMessageChunksToSse(chunks), { ...init, status: init.status ?? 200, headers });
}
