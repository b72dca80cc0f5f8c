import { createRoute, z } from '@hono/zod-openapi';
import { errorResponse } from '../http/api-error.js';
import { ConversationParamsSchema, SeqQuerySchema } from '../http/api-schemas.js';
import { errorFields } from '../http/error-fields.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';
import { startMessageFeed } from '../streams/message-feed.js';
import { sseResponse } from '../streams/sse-response.js';

/** `Last-Event-ID`: `<seq>-<epoch>` as this stream sends it, or a bare seq (a turn stream's `id`). */
const LAST_EVENT_ID_PATTERN = /^(\d{1,15})(?:-([0-9a-f]{8}))?$/;

const eventsRoute = createRoute({
  method: 'get',
  path: '/v1/conversations/{id}/events',
  summary: 'Live stream of the messages stored in a conversation',
  description:
    'Server-sent events: first every stored message after the resume point, then each new one as ' +
    'it is stored (by any instance), as `event: message` with `id: <seq>-<epoch>` (`epoch` names this ' +
    'incarnation of the conversation id: seqs restart at 1 when a deleted id is used again). Resume with ' +
    'the `Last-Event-ID` header (EventSource sends the last `id` received on reconnect; a bare seq is ' +
    'accepted too) or `fromSeq` (the first seq wanted); the header wins. When the conversation is ' +
    'deleted, the stream sends `event: deleted` (data: `{ conversationId }`) and ends; a resume whose ' +
    'history is not the current conversation (deleted, or deleted and re-created) gets the same, never ' +
    'messages of the new one: close the EventSource then, and open a new stream without `Last-Event-ID` ' +
    'to follow the new conversation. (A bare-seq `Last-Event-ID` is taken as this conversation’s if that ' +
    'seq exists.) A conversation without messages yet is not an error: the stream waits for its first ' +
    'message. A comment is sent every 15 s. A client that stops reading is disconnected once too much ' +
    'waits for it; it resumes with `Last-Event-ID`.',
  request: {
    params: ConversationParamsSchema,
    query: z.object({
      fromSeq: SeqQuerySchema.optional().openapi({ description: 'First seq to send (inclusive); default 1' }),
    }),
    headers: z.object({
      'last-event-id': z
        .string()
        .regex(LAST_EVENT_ID_PATTERN)
        .optional()
        .openapi({ description: 'The last `id` the client has: `<seq>-<epoch>`, or a bare seq' }),
    }),
  },
  responses: {
    200: {
      description: 'The event stream',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    400: errorResponse('Invalid id, fromSeq or Last-Event-ID'),
  },
});

/** `shutdown` ends every live stream. */
export type EventRouteDeps = Pick<RouteDeps, 'store' | 'events' | 'logger' | 'shutdown' | 'streamLimits'>;

/** `GET …/events`: the live message feed of a conversation. */
export function registerEventRoutes(app: ServerApp, deps: EventRouteDeps): void {
  app.openapi(eventsRoute, (c) => {
    const { id } = c.req.valid('param');
    const { fromSeq } = c.req.valid('query');
    const lastEventId = LAST_EVENT_ID_PATTERN.exec(c.req.valid('header')['last-event-id'] ?? '');
    const afterSeq = lastEventId === null ? (fromSeq ?? 1) - 1 : Number(lastEventId[1]);
    const epoch = lastEventId?.[2];
    // HEAD gets the headers only: Hono drops the body unread, so a feed started here would never end.
    if (c.req.method === 'HEAD') {
      c.header('X-Accel-Buffering', 'no');
      return c.body(null, 200, { 'content-type': 'text/event-stream' });
    }
    const fail = (error: unknown) => deps.logger.error(errorFields(error), 'event stream failed');
    return sseResponse(
      c,
      deps.streamLimits,
      async (writer) => {
        // Sends the headers now: a client waiting for a first message knows it is connected.
        writer.comment('connected');
        await new Promise<void>((resolve) => {
          let finished = false;
          const finish = () => {
            if (finished) return;
            finished = true;
            stopFeed();
            deps.shutdown.removeEventListener('abort', finish);
            resolve();
          };
          const stopFeed = startMessageFeed({
            store: deps.store,
            events: deps.events,
            conversationId: id,
            afterSeq,
            ...(lastEventId === null ? {} : { resume: epoch === undefined ? {} : { epoch } }),
            send: (message, messageEpoch) =>
              writer.send({
                event: 'message',
                id: `${message.seq}-${messageEpoch}`,
                data: JSON.stringify(message),
              }),
            onDeleted: () => {
              void writer.send({ event: 'deleted', data: JSON.stringify({ conversationId: id }) });
              finish();
            },
            onError: (error) => {
              // The client reconnects with Last-Event-ID and resumes where this stream stopped.
              deps.logger.warn({ conversationId: id, ...errorFields(error) }, 'event stream read failed');
              finish();
            },
          });
          writer.keepAlive('heartbeat');
          // The client went away, or was disconnected for not reading.
          writer.onEnd(finish);
          deps.shutdown.addEventListener('abort', finish);
          // Shutdown may have happened before the listener was added.
          if (deps.shutdown.aborted) finish();
        });
        // What is queued (a `deleted` event) goes out before the stream closes, unless the client stalls.
        await writer.flush();
      },
      fail,
    );
  });
}
