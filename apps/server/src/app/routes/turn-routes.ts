import { CairnError } from '@cairn/core';
import { createRoute, z } from '@hono/zod-openapi';
import {
  type AttachmentLimits,
  type PostMessageBody,
  PostMessageBodySchema,
  PostMessageFormSchema,
  readMessageContent,
} from '../attachments/message-content.js';
import { apiError, errorResponse } from '../http/api-error.js';
import {
  AgentOutputSchema,
  ConversationParamsSchema,
  SeqQuerySchema,
  TEXT_ONCE_DESCRIPTION,
  TurnStreamQuerySchema,
} from '../http/api-schemas.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';
import { pickModel } from '../turns/pick-model.js';
import { respondWithTurn } from '../turns/respond-with-turn.js';
import { storedUserInput } from '../turns/stored-user-input.js';
import { streamRunningTurn } from '../turns/turn-event-stream.js';
import { TURN_ENDED, TURN_EVENTS_DESCRIPTION } from './turn-schemas.js';

const ModelQuerySchema = z.string().min(1).max(200).optional().openapi({
  description: 'One of the server’s models (`GET /v1/models`) for this turn; default: the server’s',
});

const postMessageRoute = createRoute({
  method: 'post',
  path: '/v1/conversations/{id}/messages',
  summary: 'Send a user message and run the turn',
  description:
    'The first message creates the conversation. Turns of one conversation run one at a time. ' +
    'Attachments (images, PDFs, text files) come as base64 parts in JSON or as `file` fields of a ' +
    '`multipart/form-data` body; each is checked before the turn starts, so a refused one stores nothing. ' +
    'Stored bytes are served by `GET /v1/conversations/{id}/attachments/{sha256}`. With `branchFrom`, the ' +
    'message starts a branch: it takes the place of the user message at that seq (edit-and-resend; the same ' +
    'text again regenerates its answer). The log is append-only: what it replaces stays stored, shown by ' +
    'neither the display view nor the model; `view=log` has it all.',
  request: {
    params: ConversationParamsSchema,
    query: TurnStreamQuerySchema.extend({
      branchFrom: SeqQuerySchema.optional().openapi({
        description: 'The seq of the user message this one replaces (of the conversation as it stands)',
      }),
      model: ModelQuerySchema,
    }),
    // Not `required`: the JSON validator would then refuse a multipart body (read by the handler).
    body: {
      content: {
        'application/json': { schema: PostMessageBodySchema },
        'multipart/form-data': { schema: PostMessageFormSchema },
      },
    },
  },
  responses: {
    200: TURN_ENDED,
    400: errorResponse(
      'Invalid id or body; an attachment that is empty, not what its media type says, or an SVG with script',
    ),
    413: errorResponse('Body, or the attachments in total, over the size limit'),
    415: errorResponse(
      'An attachment of a media type not allowed (`UNSUPPORTED_CONTENT`), or a body neither JSON nor multipart',
    ),
    429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
  },
});

const regenerateRoute = createRoute({
  method: 'post',
  path: '/v1/conversations/{id}/regenerate',
  summary: 'Answer a user message again (regenerate, or retry after a failure)',
  description:
    'Stores the user message at `seq` (default: the last one of the conversation as it stands) once more, ' +
    'as a branch in its place (`branchFrom`), and runs the turn, answering as `POST …/messages` does (JSON, ' +
    'or the event stream with `Accept: text/event-stream`). The earlier answer stays stored, out of the ' +
    'context and the display view.',
  request: {
    params: ConversationParamsSchema,
    query: TurnStreamQuerySchema.extend({ model: ModelQuerySchema }),
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z.object({
            seq: z
              .number()
              .int()
              .positive()
              .optional()
              .openapi({ description: 'The user message to answer again' }),
          }),
        },
      },
    },
  },
  responses: {
    200: TURN_ENDED,
    400: errorResponse('Invalid id or body; `seq` not a user message of the conversation as it stands'),
    429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
  },
});

const runningTurnRoute = createRoute({
  method: 'get',
  path: '/v1/conversations/{id}/turn',
  summary: "Follow the conversation's running turn (from another tab, or after a reload)",
  description:
    'The turn of this conversation running in this server (any of its workers), whoever started it ' +
    '(`POST …/messages` or `POST /v1/chat`): its events from the first (the user message stored, the ' +
    'answer streamed so far), then live, then `done` — the same events as the `POST …/messages` ' +
    'event stream. 204 when none runs. A turn waiting behind another is followed once it runs.' +
    TEXT_ONCE_DESCRIPTION,
  request: { params: ConversationParamsSchema, query: TurnStreamQuerySchema },
  responses: {
    200: {
      description: 'The running turn',
      content: {
        'text/event-stream': { schema: z.string().openapi({ description: TURN_EVENTS_DESCRIPTION }) },
      },
    },
    204: { description: 'No turn of the conversation runs in this server' },
    400: errorResponse('Invalid id'),
  },
});

const abortRoute = createRoute({
  method: 'post',
  path: '/v1/conversations/{id}/abort',
  summary: "Abort the conversation's running turn (and, when asked, those queued behind it)",
  description:
    'Ends the turn that runs now, wherever it runs in this server (any of its workers): it stores its ' +
    'abort. Turns of the conversation waiting behind it then run in turn, unless `queued=true`, which ' +
    'cancels them too (they store nothing: their user message was not stored yet).',
  request: {
    params: ConversationParamsSchema,
    query: z.object({
      queued: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: 'Also cancel the turns waiting behind the running one (default `false`)' }),
    }),
  },
  responses: {
    202: {
      description:
        'Whether a turn of the conversation was running (or, with `queued=true`, waiting) in this server, any of its workers',
      content: { 'application/json': { schema: z.object({ aborted: z.boolean() }) } },
    },
    400: errorResponse('Invalid id'),
  },
});

export type TurnRouteDeps = Pick<
  RouteDeps,
  | 'runtime'
  | 'models'
  | 'store'
  | 'turnLock'
  | 'events'
  | 'logger'
  | 'registry'
  | 'runningTurns'
  | 'streamLimits'
  | 'turnPeers'
> & { attachments: AttachmentLimits };

/**
 * Running a turn (as JSON or as an event stream) and aborting it. A turn also ends aborted if its
 * conversation's lock is lost meanwhile (see `runConversationTurn`).
 */
export function registerTurnRoutes(app: ServerApp, deps: TurnRouteDeps): void {
  const { registry } = deps;
  // Only named in the event-stream description, so listed explicitly for clients generating types.
  app.openAPIRegistry.register('AgentOutput', AgentOutputSchema);
  app.openapi(postMessageRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { branchFrom, model: modelId } = c.req.valid('query');
    const model = pickModel(deps.models, modelId);
    // Validated when the body is JSON, `{}` otherwise (the form is read by readMessageContent).
    const json = c.req.valid('json' as never) as PostMessageBody | Record<string, never>;
    const read = await readMessageContent(c, json, deps.attachments);
    if ('refused' in read) return read.refused as never;
    return respondWithTurn(c, deps, {
      conversationId: id,
      content: read.content,
      branchFrom,
      model,
    }) as never;
  });

  app.openapi(regenerateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { seq } = (c.req.valid('json') ?? {}) as { seq?: number };
    const model = pickModel(deps.models, c.req.valid('query').model);
    let input: Awaited<ReturnType<typeof storedUserInput>>;
    try {
      input = await storedUserInput(deps.store, id, seq);
    } catch (error) {
      if (!CairnError.is(error, 'INVALID_ARGUMENT')) throw error;
      return apiError(c, 400, 'INVALID_ARGUMENT', error.message) as never;
    }
    return respondWithTurn(c, deps, {
      conversationId: id,
      content: input.content,
      branchFrom: input.seq,
      model,
    }) as never;
  });

  app.openapi(runningTurnRoute, async (c) => {
    const { id } = c.req.valid('param');
    // Here, or in a cluster the worker that runs the turn.
    const events = await deps.runningTurns.resume(id);
    if (events === undefined) return c.body(null, 204);
    return streamRunningTurn(c, events, deps.logger, deps.streamLimits) as never;
  });

  const abortHere = (id: string, reason: string, queued: boolean) =>
    queued ? registry.abort(id, reason) : registry.abortRunning(id, reason);
  // In a cluster, an abort reaches one worker; the turn may run (or wait) in another.
  deps.turnPeers?.serve(abortHere);
  app.openapi(abortRoute, async (c) => {
    const { id } = c.req.valid('param');
    const queued = c.req.valid('query').queued === 'true';
    const reason = 'aborted by request';
    const here = abortHere(id, reason, queued);
    const elsewhere = (await deps.turnPeers?.abort(id, reason, queued)) ?? false;
    return c.json({ aborted: here || elsewhere }, 202);
  });
}
