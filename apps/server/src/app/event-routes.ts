import type { ConversationStore } from '@cairn/core';
import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { ConversationEventBus } from '../events/conversation-events.js';
import { errorResponse } from './api-error.js';
import { ConversationParamsSchema, SeqQuerySchema } from './api-schemas.js';
import { errorFields } from './error-fields.js';
import { startMessageFeed } from './message-feed.js';
import type { ServerApp, ServerLogger } from './server-env.js';

// Often enough for proxies that close idle connections after 30-60 s.
const HEARTBEAT_MS = 15_000;

const eventsRoute = createRoute({
  method: 'get',
  path: '/v1/conversations/{id}/events',
  summary: 'Live stream of the messages stored in a conversation',
  description:
    'Server-sent events: first every stored message after the resume point, then each new one as ' +
    'it is stored (by any instance), as `event: message` with `id: <seq>`. Resume with the ' +
    '`Last-Event-ID` header (the last seq received; EventSource sends it on reconnect) or `fromSeq` ' +
    '(the first seq wanted); the header wins. A conversation without messages yet is not an error: ' +
    'the stream waits for its first message. A comment is sent every 15 s.',
  request: {
    params: ConversationParamsSchema,
    query: z.object({
      fromSeq: SeqQuerySchema.optional().openapi({ description: 'First seq to send (inclusive); default 1' }),
    }),
    headers: z.object({
      'last-event-id': z
        .string()
        .regex(/^\d{1,15}$/)
        .optional()
        .openapi({ description: 'The last seq the client has' }),
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

export interface EventRouteDependencies {
  store: ConversationStore;
  events: ConversationEventBus;
  logger: ServerLogger;
  /** Ends every live stream (server shutdown). */
  shutdown: AbortSignal;
}

/** `GET …/events`: the live message feed of a conversation. */
export function registerEventRoutes(app: ServerApp, deps: EventRouteDependencies): void {
  app.openapi(eventsRoute, (c) => {
    const { id } = c.req.valid('param');
    const { fromSeq } = c.req.valid('query');
    const lastEventId = c.req.valid('header')['last-event-id'];
    const afterSeq = lastEventId === undefined ? (fromSeq ?? 1) - 1 : Number(lastEventId);
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      // Sends the headers now: a client waiting for a first message knows it is connected.
      await stream.write(': connected\n\n');
      await new Promise<void>((resolve) => {
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          stopFeed();
          clearInterval(heartbeat);
          deps.shutdown.removeEventListener('abort', finish);
          resolve();
        };
        const stopFeed = startMessageFeed({
          store: deps.store,
          events: deps.events,
          conversationId: id,
          afterSeq,
          send: (message) =>
            stream.writeSSE({ event: 'message', id: String(message.seq), data: JSON.stringify(message) }),
          onError: (error) => {
            // The client reconnects with Last-Event-ID and resumes where this stream stopped.
            deps.logger.warn({ conversationId: id, ...errorFields(error) }, 'event stream read failed');
            finish();
          },
        });
        const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
        stream.onAbort(finish);
        deps.shutdown.addEventListener('abort', finish);
        // Either may have happened before the listeners were added.
        if (stream.aborted || deps.shutdown.aborted) finish();
      });
    });
  });
}
