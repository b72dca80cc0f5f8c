import type { ConversationMessage, ConversationStore } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { createRoute, z } from '@hono/zod-openapi';
import { apiError, errorResponse } from '../http/api-error.js';
import {
  ConversationMessageSchema,
  ConversationParamsSchema,
  limitQuerySchema,
  SeqQuerySchema,
} from '../http/api-schemas.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';

const MessagesQuerySchema = z.object({
  view: z
    .enum(['log', 'display'])
    .default('log')
    .openapi({
      description:
        '`log`: the stored messages. `display`: what a UI shows — the whole log is projected (a tool ' +
        "call and its result become one `tool_execution` message, at its result's seq), then filtered.",
    }),
  fromSeq: SeqQuerySchema.optional().openapi({ description: 'First seq to return (inclusive)' }),
  limit: limitQuerySchema(1000, 200),
});

const listMessagesRoute = createRoute({
  method: 'get',
  path: '/v1/conversations/{id}/messages',
  summary: 'Messages of a conversation, in seq order',
  request: { params: ConversationParamsSchema, query: MessagesQuerySchema },
  responses: {
    200: {
      description: 'The messages',
      content: { 'application/json': { schema: z.object({ messages: z.array(ConversationMessageSchema) }) } },
    },
    400: errorResponse('Invalid id or query'),
    404: errorResponse('No such conversation'),
  },
});

async function displayMessages(store: ConversationStore, id: string, fromSeq: number | undefined) {
  // The projection pairs calls with results, so it needs the whole log, not a page of it.
  const shown = toDisplayMessages(await store.load(id));
  return fromSeq === undefined ? shown : shown.filter((message) => (message.seq ?? 0) >= fromSeq);
}

export type MessageRouteDeps = Pick<RouteDeps, 'store'>;

/** Reading a conversation's messages. */
export function registerMessageRoutes(app: ServerApp, deps: MessageRouteDeps): void {
  const { store } = deps;
  app.openapi(listMessagesRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { view, fromSeq, limit } = c.req.valid('query');
    const messages: ConversationMessage[] =
      view === 'display'
        ? (await displayMessages(store, id, fromSeq)).slice(0, limit)
        : await store.load(id, { limit, ...definedFields({ fromSeq }) });
    // An empty page is either the end of a conversation or no conversation at all.
    if (messages.length === 0 && (await store.load(id, { limit: 1 })).length === 0) {
      return apiError(c, 404, 'STORE_NOT_FOUND', 'no such conversation');
    }
    return c.json({ messages }, 200);
  });
}
