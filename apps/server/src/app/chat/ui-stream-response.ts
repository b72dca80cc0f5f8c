import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from '@cairn/runtime';
import type { Context } from 'hono';
import type { ServerEnv } from '../server-env.js';
import { sseResponse } from '../streams/sse-response.js';
import type { SseStreamLimits } from '../streams/sse-writer.js';

/**
 * Answers `c` with `chunks` in the AI SDK UI message stream protocol (`data: <chunk JSON>` events,
 * then `data: [DONE]`, a `: keep-alive` comment every 15 s) through the server's SSE writer: straight
 * to the connection on @hono/node-server, a client that stops reading cut off as on the other event
 * streams (`limits`). The chunks are read as the client takes them; a client that goes away stops the
 * reading, never the turn.
 */
export function uiStreamResponse(
  c: Context<ServerEnv>,
  chunks: AsyncIterable<UIMessageChunk>,
  limits: SseStreamLimits | undefined,
  onError: (error: unknown) => void,
): Response {
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) c.header(name, value);
  return sseResponse(
    c,
    limits,
    async (writer) => {
      const reading = chunks[Symbol.asyncIterator]();
      writer.onEnd(() => void reading.return?.());
      writer.keepAlive('keep-alive');
      for (let next = await reading.next(); next.done !== true; next = await reading.next()) {
        if (writer.closed) return;
        await writer.write(`data: ${JSON.stringify(next.value)}\n\n`);
      }
      await writer.write('data: [DONE]\n\n');
      await writer.flush();
    },
    onError,
  );
}
