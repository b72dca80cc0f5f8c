import { randomUUID } from 'node:crypto';
import { definedFields } from '@cairn/core';
import { runConversationId } from '@cairn/runtime';
import { createRoute, z } from '@hono/zod-openapi';
import { apiError, errorResponse } from '../http/api-error.js';
import { TEXT_ONCE_DESCRIPTION, TurnStreamQuerySchema } from '../http/api-schemas.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';
import { respondWithRunTurn } from '../turns/respond-with-run-turn.js';
import {
  ContinueRunBodySchema,
  publicRun,
  RUN_TURN_EVENTS_DESCRIPTION,
  RunListQuerySchema,
  RunPageSchema,
  RunParamsSchema,
  RunSchema,
  RunTurnResultSchema,
  StartRunBodySchema,
  WorkflowListSchema,
} from './run-schemas.js';

export type RunRouteDeps = Pick<
  RouteDeps,
  'runtime' | 'store' | 'turnLock' | 'events' | 'logger' | 'registry' | 'streamLimits' | 'workflows'
>;

const turnResponses = {
  400: errorResponse('Invalid id or body, or an unknown workflow'),
  409: errorResponse(
    'The run id is taken (`CONVERSATION_EXISTS`), or the turn was aborted before it started (`LLM_ABORTED`)',
  ),
  429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
};

const turnContent = {
  'application/json': { schema: RunTurnResultSchema },
  'text/event-stream': {
    schema: z.string().openapi({ description: RUN_TURN_EVENTS_DESCRIPTION + TEXT_ONCE_DESCRIPTION }),
  },
};

const listWorkflowsRoute = createRoute({
  method: 'get',
  path: '/v1/workflows',
  summary: 'The workflow packages runs can be started from',
  responses: {
    200: {
      description: 'Every package and its workflows',
      content: { 'application/json': { schema: WorkflowListSchema } },
    },
  },
});

const startRunRoute = createRoute({
  method: 'post',
  path: '/v1/runs',
  summary: 'Start a run of a workflow and run its first turn',
  description:
    'The run lives in its own conversation `run-<runId>`: the workflow, every state change and every ' +
    "message of its turns. Answers 201 with the turn's result as JSON, or streams the turn with " +
    '`Accept: text/event-stream`.',
  request: {
    query: TurnStreamQuerySchema,
    body: { required: true, content: { 'application/json': { schema: StartRunBodySchema } } },
  },
  responses: {
    201: {
      description: 'The run exists and its first turn ended (successfully or with a stored failure)',
      headers: { Location: { description: 'The run: `/v1/runs/{runId}`', schema: { type: 'string' } } },
      content: { 'application/json': turnContent['application/json'] },
    },
    200: {
      description: 'The first turn as server-sent events',
      content: { 'text/event-stream': turnContent['text/event-stream'] },
    },
    ...turnResponses,
  },
});

const listRunsRoute = createRoute({
  method: 'get',
  path: '/v1/runs',
  summary: 'List runs, most recently updated first',
  request: { query: RunListQuerySchema },
  responses: {
    200: { description: 'One page', content: { 'application/json': { schema: RunPageSchema } } },
    400: errorResponse('Invalid cursor or limit'),
  },
});

const getRunRoute = createRoute({
  method: 'get',
  path: '/v1/runs/{id}',
  summary: 'Where a run stands',
  request: { params: RunParamsSchema },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: RunSchema } } },
    400: errorResponse('Invalid id'),
    404: errorResponse('No such run'),
  },
});

const continueRunRoute = createRoute({
  method: 'post',
  path: '/v1/runs/{id}/messages',
  summary: "Send the user's reply (or just continue) and run the run's next turn",
  description:
    'Turns of one run run one at a time (with chat turns on its conversation too). A completed run ' +
    'answers follow-up questions.',
  request: {
    params: RunParamsSchema,
    query: TurnStreamQuerySchema,
    body: { required: false, content: { 'application/json': { schema: ContinueRunBodySchema } } },
  },
  responses: {
    200: { description: 'The turn ended (successfully or with a stored failure)', content: turnContent },
    404: errorResponse('No such run'),
    ...turnResponses,
  },
});

const abortRunRoute = createRoute({
  method: 'post',
  path: '/v1/runs/{id}/abort',
  summary: "Abort this instance's running (and queued) turns of the run",
  request: { params: RunParamsSchema },
  responses: {
    202: {
      description: 'Whether a turn was running here',
      content: { 'application/json': { schema: z.object({ aborted: z.boolean() }) } },
    },
    400: errorResponse('Invalid id'),
  },
});

/** Workflows, and runs: starting them, their turns (JSON or server-sent events), reading and aborting them. */
export function registerRunRoutes(app: ServerApp, deps: RunRouteDeps): void {
  const { registry } = deps;
  app.openapi(listWorkflowsRoute, (c) => {
    const packages = (deps.workflows ?? []).map((pkg) => ({ name: pkg.name, workflows: pkg.workflows }));
    return c.json({ packages }, 200);
  });

  app.openapi(startRunRoute, async (c) => {
    const { workflow, input, runId: givenId } = c.req.valid('json');
    const runId = givenId ?? `r-${randomUUID()}`;
    if (givenId !== undefined && (await deps.store.load(runConversationId(runId), { limit: 1 })).length > 0) {
      return apiError(
        c,
        409,
        'CONVERSATION_EXISTS',
        `run ${runId} already exists: continue it with POST /v1/runs/${runId}/messages`,
      );
    }
    return respondWithRunTurn(c, deps, { kind: 'start', runId, workflow, ...definedFields({ input }) }, 201);
  });

  app.openapi(listRunsRoute, async (c) => {
    const { cursor, limit } = c.req.valid('query');
    const page = await deps.runtime.runs.list({ limit, ...definedFields({ cursor }) });
    return c.json(
      {
        runs: page.runs.map((state) => publicRun(state, runConversationId(state.runId))),
        ...definedFields({ nextCursor: page.nextCursor }),
      },
      200,
    );
  });

  app.openapi(getRunRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(publicRun(await deps.runtime.runs.get(id), runConversationId(id)), 200);
  });

  app.openapi(continueRunRoute, async (c) => {
    const { id } = c.req.valid('param');
    const content = c.req.valid('json')?.content;
    return respondWithRunTurn(
      c,
      deps,
      { kind: 'continue', runId: id, ...definedFields({ userInput: content }) },
      200,
    );
  });

  app.openapi(abortRunRoute, (c) => {
    const { id } = c.req.valid('param');
    return c.json({ aborted: registry.abort(runConversationId(id), 'aborted by request') }, 202);
  });
}
