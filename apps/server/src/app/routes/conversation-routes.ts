import { randomUUID } from 'node:crypto';
import {
  assertStoreSearches,
  definedFields,
  MAX_CONVERSATION_TITLE_LENGTH,
  MAX_SEARCH_LENGTH,
  normalizeConversationTitle,
} from '@cairn/core';
import { createRoute, z } from '@hono/zod-openapi';
import { appendTitleRecord, findConversationSummary } from '../conversations/rename-conversation.js';
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
    title: z.string().optional().openapi({
      description: 'The latest rename (`PATCH`), else the first user message on one line',
    }),
  })
  .openapi('ConversationSummary');

// Characters, not UTF-16 units: an emoji counts once, as in the stores.
const charCount = (text: string) => Array.from(text).length;

const ListQuerySchema = z.object({
  cursor: z.string().max(1024).optional(),
  limit: limitQuerySchema(100, 20),
  q: z
    .string()
    .refine((q) => charCount(q) >= 1 && charCount(q) <= MAX_SEARCH_LENGTH, {
      message: `1 to ${MAX_SEARCH_LENGTH} characters`,
    })
    .optional()
    .openapi({
      description:
        'Only conversations whose title, or the text of a user or assistant message, contains this ' +
        '(case-insensitive plain substring: `%`, `_`, `\\` and regex characters match themselves). ' +
        'Page on with the `nextCursor` of the same search.',
    }),
});

const RenameBodySchema = z
  .object({
    title: z.string().openapi({
      description: `Trimmed; 1 to ${MAX_CONVERSATION_TITLE_LENGTH} characters, one line (no line breaks)`,
      example: 'Trip to Oslo',
    }),
  })
  .openapi('RenameConversationRequest');

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
  summary: 'List or search conversations, most recently updated first',
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
    400: errorResponse('Invalid cursor, limit or q'),
    501: errorResponse('`q` given, but the store cannot search (`UNSUPPORTED_OPERATION`)'),
  },
});

const renameRoute = createRoute({
  method: 'patch',
  path: '/v1/conversations/{id}',
  summary: 'Rename a conversation',
  description:
    'Appends a title record (`role: system`, `partType: title`, the title as `content`) to the ' +
    "conversation's log: it is never sent to a model, `/events` streams deliver it like any message, " +
    'and the listing shows the latest one as the title.',
  request: {
    params: ConversationParamsSchema,
    body: { required: true, content: { 'application/json': { schema: RenameBodySchema } } },
  },
  responses: {
    200: {
      description: "The conversation's listing row, with the new title",
      content: { 'application/json': { schema: ConversationSummarySchema } },
    },
    400: errorResponse('Invalid id, or a title empty, too long or of several lines'),
    404: errorResponse('No such conversation (it has no messages)'),
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

/** Creating, listing, searching, renaming and deleting conversations. */
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
    const { cursor, limit, q } = c.req.valid('query');
    if (q !== undefined) assertStoreSearches(store);
    const page = await store.listConversations({ limit, ...definedFields({ cursor, search: q }) });
    return c.json(page, 200);
  });

  app.openapi(renameRoute, async (c) => {
    const { id } = c.req.valid('param');
    const title = normalizeConversationTitle(c.req.valid('json').title);
    const seq = await appendTitleRecord(store, id, title);
    if (seq === undefined) return apiError(c, 404, 'STORE_NOT_FOUND', 'no such conversation');
    // Followers of the conversation (here and on other instances) read the record from the log.
    await events.publish({ conversationId: id, lastSeq: seq }).catch((error: unknown) => {
      logger.warn({ conversationId: id, ...errorFields(error) }, 'publish of a rename failed');
    });
    const summary = await findConversationSummary(store, id);
    // Deleted since the append: gone, as the client will see.
    if (summary === undefined) return apiError(c, 404, 'STORE_NOT_FOUND', 'no such conversation');
    return c.json(summary, 200);
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
