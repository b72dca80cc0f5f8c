import type { CairnErrorJSON, ConversationMessage } from '@cairn/core';
import type { ChatResult, RuntimeEventListener } from '@cairn/runtime';
import type { Context } from 'hono';
import { type PublicError, publicTurnError, toPublicError } from '../http/api-error.js';
import { errorFields } from '../http/error-fields.js';
import type { ServerEnv, ServerLogger } from '../server-env.js';
import { sseResponse } from '../streams/sse-response.js';
import { encodeSse, type SseStreamLimits } from '../streams/sse-writer.js';
import { StreamedAnswerText } from './streamed-answer-text.js';

type DoneEvent = { success: boolean; error?: CairnErrorJSON | Omit<PublicError, 'status'> };

/**
 * A message of the display view, streamed as a `display` event: a `tool_execution` with
 * `status: 'running'` is a call that started; a later one with the same id replaces it.
 */
export interface DisplayEvent {
  type: 'display';
  message: ConversationMessage;
}

/** Whether the client asked for the whole text again after its deltas (`?text=full`). */
export const wantsFullText = (c: Context<ServerEnv>) => c.req.query('text') === 'full';

/**
 * Streams one turn as server-sent events: `agent_output` per model/tool event, `message` per
 * stored message (`id:` its seq), then `done`. The answer's text and reasoning go once, as deltas: a
 * block's closing event and an assistant message's `content` or `reasoning` that only repeat them are
 * left out (`StreamedAnswerText`), unless `fullText`. The turn does not depend on the stream: when the client
 * goes away, or is disconnected for not reading (`limits`, see `SseWriter`), writes are dropped and the
 * turn runs on, storing everything (abort is explicit).
 */
export function streamTurn(
  c: Context<ServerEnv>,
  runTurn: (
    onEvent: (event: Parameters<RuntimeEventListener>[0] | DisplayEvent) => void,
  ) => Promise<ChatResult>,
  logger: ServerLogger,
  limits?: SseStreamLimits,
  { fullText = wantsFullText(c) }: { fullText?: boolean } = {},
): Response {
  const fail = (error: unknown) => logger.error(errorFields(error), 'turn stream failed');
  return sseResponse(
    c,
    limits,
    async (writer) => {
      // Events arrive synchronously; the writer keeps them in order without blocking the turn, and
      // bounds what waits for a client that does not read. Each is serialised once, here.
      const send = (event: string, data: string, id?: string) =>
        void writer.write(encodeSse(id === undefined ? { event, data } : { event, data, id }));
      const streamed = fullText ? undefined : new StreamedAnswerText();
      let done: DoneEvent;
      try {
        const result = await runTurn((event) => {
          if (event.type === 'error' && event.code === 'STORE_UNAVAILABLE') {
            // The store's own words stay in the logs; the final `done` event says what happened.
          } else if (event.type === 'display') {
            send('display', JSON.stringify(event.message));
          } else if (event.type !== 'runtime') {
            if (streamed === undefined || streamed.add(event)) send('agent_output', JSON.stringify(event));
          } else if (event.event === 'message_persisted') {
            // Other runtime events (compression bookkeeping) are not part of this API.
            const message =
              streamed === undefined ? event.message : streamed.withoutStreamedText(event.message);
            send(
              'message',
              JSON.stringify(message),
              message.seq === undefined ? undefined : String(message.seq),
            );
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
      send('done', JSON.stringify(done));
      await writer.flush();
    },
    fail,
  );
}
