import { CairnError } from '@cairn/core';
import { runIdOfConversation } from '@cairn/runtime';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { apiError, errorResponse, toPublicError } from '../http/api-error.js';
import { ConversationParamsSchema, SafeIdSchema, TurnStreamQuerySchema } from '../http/api-schemas.js';
import { callerId } from '../http/caller-id.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp, ServerEnv } from '../server-env.js';
import { respondWithRunTurn } from '../turns/respond-with-run-turn.js';
import { respondWithTurn } from '../turns/respond-with-turn.js';
import { ApprovalSchema, TURN_ENDED } from './turn-schemas.js';

const listApprovalsRoute = createRoute({
  method: 'get',
  path: '/v1/conversations/{id}/approvals',
  summary: "The conversation's approval requests, pending and decided",
  description:
    'A tool that needs approval stores a request and its turn ends waiting (`waiting` in its result). ' +
    'Requests are records of the log: they survive restarts, and `/events` followers see them come.',
  request: { params: ConversationParamsSchema },
  responses: {
    200: {
      description: 'Every request, oldest first; `status` says which still wait',
      content: {
        'application/json': {
          schema: z.object({
            approvals: z.array(ApprovalSchema.extend({ status: z.enum(['pending', 'expired', 'decided']) })),
          }),
        },
      },
    },
    400: errorResponse('Invalid id'),
  },
});

const DecisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'deny', 'edit']),
    input: z.unknown().optional().openapi({ description: '`edit`: the input to run with instead' }),
    reason: z.string().max(2000).optional().openapi({ description: 'Why; the model reads it with a denial' }),
  })
  .openapi('ApprovalDecisionBody');

const decideRoute = createRoute({
  method: 'post',
  path: '/v1/conversations/{id}/approvals/{approvalId}',
  summary: 'Decide an approval request, once, and continue the turn',
  description:
    'Stores the one decision of the request (the caller is recorded as who decided), then continues ' +
    'the conversation as `POST …/resume` does: the call runs (or is denied) and the model answers, as ' +
    'JSON or, with `Accept: text/event-stream`, as events. A request is decided once, whoever decides ' +
    'it from whichever worker or instance: a second decision is 409 with who decided first.',
  request: {
    params: ConversationParamsSchema.extend({
      approvalId: SafeIdSchema.openapi({ param: { name: 'approvalId', in: 'path' } }),
    }),
    query: TurnStreamQuerySchema,
    body: { required: true, content: { 'application/json': { schema: DecisionBodySchema } } },
  },
  responses: {
    200: TURN_ENDED,
    400: errorResponse('Invalid id or body; an edited input the tool refuses (`TOOL_INVALID_INPUT`)'),
    403: errorResponse('The request is asked of another caller (`APPROVAL_FORBIDDEN`)'),
    404: errorResponse('No such approval request (`APPROVAL_NOT_FOUND`)'),
    409: errorResponse('Decided already (`APPROVAL_ALREADY_DECIDED`); the message says by whom and how'),
    410: errorResponse('The request expired (`APPROVAL_EXPIRED`): it is stored as expired, the call denied'),
    429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
  },
});

const resumeRoute = createRoute({
  method: 'post',
  path: '/v1/conversations/{id}/resume',
  summary: 'Continue the conversation from the store',
  description:
    'Settles the calls of the last answer that have no result — decided ones run or are denied; one ' +
    'interrupted while it ran (the process running it died) runs again only if its tool is idempotent, ' +
    'else it is answered "interrupted, not retried" — then the model answers. Nothing runs while a ' +
    'request still waits (`waiting`); with nothing owed an answer, no model is called.',
  request: { params: ConversationParamsSchema, query: TurnStreamQuerySchema },
  responses: {
    200: TURN_ENDED,
    400: errorResponse('Invalid id'),
    429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
  },
});

export type ApprovalRouteDeps = Pick<
  RouteDeps,
  'runtime' | 'store' | 'turnLock' | 'events' | 'logger' | 'registry' | 'runningTurns' | 'streamLimits'
>;

/** Approval requests: listing them, deciding one (then continuing), and continuing a conversation. */
export function registerApprovalRoutes(app: ServerApp, deps: ApprovalRouteDeps): void {
  app.openapi(listApprovalsRoute, async (c) => {
    const { id } = c.req.valid('param');
    // The stored records' shape, which the schema describes for clients without the `kind` tag.
    return c.json({ approvals: await deps.runtime.approvals.list(id) } as never, 200);
  });

  app.openapi(decideRoute, async (c) => {
    const { id, approvalId } = c.req.valid('param');
    const body = c.req.valid('json');
    try {
      await deps.runtime.approvals.decide({
        conversationId: id,
        approvalId,
        decision: body.decision,
        decidedBy: callerId(c),
        ...(body.decision === 'edit' ? { input: body.input } : {}),
        ...(body.reason === undefined ? {} : { reason: body.reason }),
      });
    } catch (error) {
      if (!CairnError.is(error)) throw error;
      const refused = toPublicError(error);
      if (refused.code === 'INTERNAL') throw error;
      return apiError(c, refused.status, refused.code, refused.message) as never;
    }
    // Decided: the turn goes on here, under the conversation's lock, like any turn.
    return goOn(c, id) as never;
  });

  app.openapi(resumeRoute, async (c) => goOn(c, c.req.valid('param').id) as never);

  // A run's conversation goes on as the run (its step, its tools); any other is resumed.
  function goOn(c: Context<ServerEnv>, conversationId: string) {
    const runId = runIdOfConversation(conversationId);
    return runId === undefined
      ? respondWithTurn(c, deps, { conversationId })
      : respondWithRunTurn(c, deps, { kind: 'continue', runId }, 200);
  }
}
