import type { ChatResult } from '@cairn/runtime';
import type { Context } from 'hono';
import { errorFields } from '../http/error-fields.js';
import type { ServerEnv, ServerLogger } from '../server-env.js';
import { sseResponse } from '../streams/sse-response.js';
import { encodeSse, type SseStreamLimits, type SseWriter } from '../streams/sse-writer.js';
import { StreamedAnswerText } from './streamed-answer-text.js';
import {
  type DoneEvent,
  doneOf,
  doneOfThrown,
  type TurnEvent,
  type TurnStreamEvent,
} from './turn-stream-events.js';

/** Whether the client asked for the whole text again after its deltas (`?text=full`). */
export const wantsFullText = (c: Context<ServerEnv>) => c.req.query('text') === 'full';

/**
 * Writes a turn's events as server-sent events: `agent_output` per model/tool event, `message` per
 * stored message (`id:` its seq), then `done`. The answer's text and reasoning go once, as deltas: a
 * block's closing event and an assistant message's `content` or `reasoning` that only repeat them are
 * left out (`StreamedAnswerText`), unless `fullText`. Each event is serialised once, here.
 */
function turnEventWriter(writer: SseWriter, fullText: boolean) {
  // The writer keeps events in order without blocking the turn, and bounds what waits for a client that does not read.
  const send = (event: string, data: string, id?: string) =>
    void writer.write(encodeSse(id === undefined ? { event, data } : { event, data, id }));
  const streamed = fullText ? undefined : new StreamedAnswerText();
  return {
    event(event: TurnEvent) {
      if (event.type === 'error' && event.code === 'STORE_UNAVAILABLE') {
        // The store's own words stay in the logs; the final `done` event says what happened.
      } else if (event.type === 'display') {
        send('display', JSON.stringify(event.message));
      } else if (event.type !== 'runtime') {
        if (streamed === undefined || streamed.add(event)) send('agent_output', JSON.stringify(event));
      } else if (event.event === 'message_persisted') {
        // Other runtime events (compression bookkeeping) are not part of this API.
        const message = streamed === undefined ? event.message : streamed.withoutStreamedText(event.message);
        send('message', JSON.stringify(message), message.seq === undefined ? undefined : String(message.seq));
      }
    },
    done(done: DoneEvent) {
      send('done', JSON.stringify(done));
    },
  };
}

/**
 * Streams one turn as server-sent events (see `turnEventWriter`). The turn does not depend on the
 * stream: when the client goes away, or is disconnected for not reading (`limits`, see `SseWriter`),
 * writes are dropped and the turn runs on, storing everything (abort is explicit).
 */
export function streamTurn(
  c: Context<ServerEnv>,
  runTurn: (onEvent: (event: TurnEvent) => void) => Promise<ChatResult>,
  logger: ServerLogger,
  limits?: SseStreamLimits,
  { fullText = wantsFullText(c) }: { fullText?: boolean } = {},
): Response {
  const fail = (error: unknown) => logger.error(errorFields(error), 'turn stream failed');
  return sseResponse(
    c,
    limits,
    async (writer) => {
      const turn = turnEventWriter(writer, fullText);
      let done: DoneEvent;
      try {
        done = doneOf(await runTurn((event) => turn.event(event)));
      } catch (error) {
        done = doneOfThrown(error);
        if (done.error?.code === 'INTERNAL') logger.error(errorFields(error), 'turn failed');
      }
      turn.done(done);
      await writer.flush();
    },
    fail,
  );
}

/** Streams a running turn's kept events (`RunningStreams`), from its first, as `streamTurn` does. */
export function streamRunningTurn(
  c: Context<ServerEnv>,
  events: AsyncIterable<TurnStreamEvent>,
  logger: ServerLogger,
  limits?: SseStreamLimits,
): Response {
  const fail = (error: unknown) => logger.error(errorFields(error), 'turn stream failed');
  return sseResponse(
    c,
    limits,
    async (writer) => {
      const turn = turnEventWriter(writer, wantsFullText(c));
      for await (const event of events) {
        if (event.type === 'turn_done') turn.done(event.done);
        else turn.event(event);
        if (writer.closed) break;
      }
      await writer.flush();
    },
    fail,
  );
}
