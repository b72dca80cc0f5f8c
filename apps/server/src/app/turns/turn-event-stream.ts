import type { CairnErrorJSON, ConversationMessage } from '@cairn/core';
import type { ChatResult, RuntimeEventListener } from '@cairn/runtime';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type PublicError, publicTurnError, toPublicError } from '../http/api-error.js';
import { errorFields } from '../http/error-fields.js';
import type { ServerEnv, ServerLogger } from '../server-env.js';
import { type SseStreamLimits, sseWriterFor } from '../streams/sse-writer.js';

type DoneEvent = { success: boolean; error?: CairnErrorJSON | Omit<PublicError, 'status'> };

/**
 * A message of the display view, streamed as a `display` event: a `tool_execution` with
 * `status: 'running'` is a call that started; a later one with the same id replaces it.
 */
export interface DisplayEvent {
  type: 'display';
  message: ConversationMessage;
}

/**
 * Streams one turn as server-sent events: `agent_output` per model/tool event, `message` per
 * stored message (`id:` its seq), then `done`. The turn does not depend on the stream: when the
 * client goes away, or is disconnected for not reading (`limits`, see `SseWriter`), writes are dropped
 * and the turn runs on, storing everything (abort is explicit).
 */
export function streamTurn(
  c: Context<ServerEnv>,
  runTurn: (
    onEvent: (event: Parameters<RuntimeEventListener>[0] | DisplayEvent) => void,
  ) => Promise<ChatResult>,
  logger: ServerLogger,
  limits?: SseStreamLimits,
): Response {
  // Proxies such as nginx would otherwise buffer the stream.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    // Events arrive synchronously; the writer keeps them in order without blocking the turn, and
    // bounds what waits for a client that does not read.
    const writer = sseWriterFor(c, stream, limits);
    const send = (message: { event: string; data: string; id?: string }) => void writer.send(message);
    let done: DoneEvent;
    try {
      const result = await runTurn((event) => {
        if (event.type === 'error' && event.code === 'STORE_UNAVAILABLE') {
          // The store's own words stay in the logs; the final `done` event says what happened.
        } else if (event.type === 'display') {
          send({ event: 'display', data: JSON.stringify(event.message) });
        } else if (event.type !== 'runtime') {
          send({ event: 'agent_output', data: JSON.stringify(event) });
        } else if (event.event === 'message_persisted') {
          // Other runtime events (compression bookkeeping) are not part of this API.
          const { message } = event;
          const id = message.seq === undefined ? {} : { id: String(message.seq) };
          send({ event: 'message', data: JSON.stringify(message), ...id });
        }
      });
      done = {
        success: result.success,
        ...(result.error === undefined ? {} : { error: publicTurnError(result.error) }),
      };
    } catch (error) {
      const { status: _status, ...shown } = toPublicError(error);
      if (shown.code === 'INTERNAL') logger.error(errorFields(error), 'turn failed');
      done = { success: false, error: shown };
    }
    send({ event: 'done', data: JSON.stringify(done) });
    await writer.flush();
  });
}
