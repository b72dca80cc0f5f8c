import { randomUUID } from 'node:crypto';
import { definedFields } from '@cairn/core';
import { createRoute, z } from '@hono/zod-openapi';
import { apiError, errorResponse } from '../http/api-error.js';
import { ConversationParamsSchema, limitQuerySchema, SafeIdSchema } from '../http/api-schemas.js';
import { errorFields } from '../http/error-fields.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';

const CreateConversationBodySchema = z
  .object({ id: SafeIdSchema.optional().openapi({ description: 'Generated (`c-<uuid>`) when absent' }) })
  .openapi('CreateConversationRequest');

const ConversationSummarySchema = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    messageCount: z.number().int(),
    lastSeq: z.number().int(),
    title: z.string().optional().openapi({ description: 'The first user message, on one line' }),
  })
  .openapi('ConversationSummary');

const ListQuerySchema = z.object({
  cursor: z.string().max(1024).optional(),
  limit: limitQuerySchema(100, 20),
});

const createRouteConfig = createRoute({
  method: 'post',
  path: '/v1/conversations',
  summary: 'Reserve a conversation id',
  description:
    'Stores nothing: a conversation exists once its first message is posted, and its title is taken ' +
    'from that message. Answers 409 when the id already has messages.',
  request: {
    body: { required: false, content: { 'application/json': { schema: CreateConversationBodySchema } } },
  },
  responses: {
    201: {
      description: 'The id to post messages to',
      content: { 'application/json': { schema: z.object({ id: z.string() }) } },
    },
    400: errorResponse('Invalid id or body'),
    409: errorResponse('The conversation already has messages'),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/v1/conversations',
  summary: 'List conversations, most recently updated first',
  request: { query: ListQuerySchema },
  responses: {
    200: {
      description: 'One page',
      content: {
        'application/json': {
          schema: z.object({
            conversations: z.array(ConversationSummarySchema),
            nextCursor: z.string().optional(),
          }),
        },
      },
    },
    400: errorResponse('Invalid cursor or limit'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/v1/conversations/{id}',
  summary: 'Delete a conversation and its blobs',
  description:
    'Live `/events` streams of it, on every instance, get `event: deleted` and end. The id can be used ' +
    'again: the new conversation starts at seq 1.',
  request: { params: ConversationParamsSchema },
  responses: {
    204: { description: 'Deleted' },
    400: errorResponse('Invalid id'),
    404: errorResponse('No such conversation'),
    409: errorResponse('A turn is running on it in this instance'),
  },
});

/** `events` is told of deletions, so live `/events` streams of the conversation end (on every instance). */
export type ConversationRouteDeps = Pick<RouteDeps, 'store' | 'registry' | 'turnLock' | 'events' | 'logger'>;

/** Creating, listing and deleting conversations. */
export function registerConversationRoutes(app: ServerApp, deps: ConversationRouteDeps): void {
  const { store, registry, turnLock, events, logger } = deps;
  // Still under the lock: the notice goes out before any of a turn that re-creates the conversation.
  const deleteAndTell = async (id: string) => {
    const deleted = await store.deleteConversation(id);
    if (deleted) {
      await events.publish({ conversationId: id, lastSeq: 0, deleted: true }).catch((error: unknown) => {
        // Deleted all the same; streams of it on other instances stay open until their clients go.
        logger.warn({ conversationId: id, ...errorFields(error) }, 'publish of a deletion failed');
      });
    }
    return deleted;
  };

  app.openapi(createRouteConfig, async (c) => {
    const asked = c.req.valid('json')?.id;
    // Only an id the client chose can already be in use: a fresh UUID is not looked up.
    if (asked !== undefined && (await store.load(asked, { limit: 1 })).length > 0) {
      return apiError(c, 409, 'CONVERSATION_EXISTS', 'the conversation already has messages');
    }
    return c.json({ id: asked ?? `c-${randomUUID()}` }, 201);
  });

  app.openapi(listRoute, async (c) => {
    const { cursor, limit } = c.req.valid('query');
    const page = await store.listConversations({ limit, ...definedFields({ cursor }) });
    return c.json(page, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (registry.has(id)) return apiError(c, 409, 'TURN_RUNNING', 'a turn is running on this conversation');
    // Under the conversation's turn lock: a turn starting here or on another instance waits, instead
    // of writing into a conversation as it is being deleted.
    const deleted = await turnLock.run(id, () => deleteAndTell(id));
    if (!deleted) return apiError(c, 404, 'STORE_NOT_FOUND', 'no such conversation');
    return c.body(null, 204);
  });
}
