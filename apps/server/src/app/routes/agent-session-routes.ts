import { randomUUID } from 'node:crypto';
import type { AgentPermissions, AgentRunResult } from '@cairn/agent-executor';
import { definedFields } from '@cairn/core';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import { type AgentSessionSettings, agentSessionSettings } from '../agent-sessions/agent-session-options.js';
import { agentSessionBody, asTurnResult, runAgentSession } from '../agent-sessions/agent-session-turn.js';
import { resolveSessionCwd } from '../agent-sessions/agent-session-workspace.js';
import { apiError, errorResponse } from '../http/api-error.js';
import { TEXT_ONCE_DESCRIPTION, TurnStreamQuerySchema } from '../http/api-schemas.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp, ServerEnv } from '../server-env.js';
import { startRegisteredTurn, wantsEventStream } from '../turns/registered-turn.js';
import { streamTurn } from '../turns/turn-event-stream.js';
import type { TurnEvent } from '../turns/turn-stream-events.js';
import {
  AGENT_SESSION_EVENTS_DESCRIPTION,
  AGENT_SESSIONS_DISABLED_CODE,
  AGENT_SESSIONS_DISABLED_MESSAGE,
  AgentSessionBodySchema,
  AgentSessionParamsSchema,
  AgentSessionResultSchema,
} from './agent-session-schemas.js';

export type AgentSessionRouteDeps = Pick<
  RouteDeps,
  'store' | 'turnLock' | 'events' | 'logger' | 'registry' | 'streamLimits' | 'agentSessions' | 'telemetry'
>;

// A session streams the display view too (`display` events), live.

const disabledResponse = errorResponse(
  `Agent sessions are not enabled on this server (\`${AGENT_SESSIONS_DISABLED_CODE}\`)`,
);

const runSessionRoute = createRoute({
  method: 'post',
  path: '/v1/agent-sessions',
  summary: 'Run Claude Code or Gemini CLI on a prompt, in a directory of the workspace',
  description:
    'Runs the agent CLI on this machine (it runs code: off unless the server enables agent sessions) and ' +
    'stores its work as a conversation: the prompt, the merged messages of the agent and its raw ' +
    'transcript. With `conversationId` the agent resumes its session of that conversation. Runs of one ' +
    'conversation run one at a time, counted against the turn limit like chat turns.',
  request: {
    query: TurnStreamQuerySchema,
    body: { required: true, content: { 'application/json': { schema: AgentSessionBodySchema } } },
  },
  responses: {
    200: {
      description: 'The agent ended (successfully, or with a failure it stored)',
      content: {
        'application/json': { schema: AgentSessionResultSchema },
        'text/event-stream': {
          schema: z
            .string()
            .openapi({ description: AGENT_SESSION_EVENTS_DESCRIPTION + TEXT_ONCE_DESCRIPTION }),
        },
      },
    },
    400: errorResponse(
      'Invalid body, an agent this server does not run, permissions it does not allow, a `cwd` outside the workspace root or missing, or nothing to resume',
    ),
    404: disabledResponse,
    409: errorResponse('The run was aborted before it started (`LLM_ABORTED`): nothing was stored'),
    429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
  },
});

const abortSessionRoute = createRoute({
  method: 'post',
  path: '/v1/agent-sessions/{id}/abort',
  summary: "Stop this instance's running (and queued) agent runs of the conversation",
  description:
    'The agent gets the signal it stops on (SIGINT for Claude Code and Gemini CLI; then SIGTERM and SIGKILL), and every process of its run is ended; the run is stored as aborted.',
  request: { params: AgentSessionParamsSchema },
  responses: {
    202: {
      description: 'Whether a run was going on here',
      content: { 'application/json': { schema: z.object({ aborted: z.boolean() }) } },
    },
    400: errorResponse('Invalid id'),
    404: disabledResponse,
  },
});

/** An agent session is read-only unless the request asks for more (and the server allows it). */
const DEFAULT_SESSION_PERMISSIONS: AgentPermissions = { mode: 'read-only' };

// Tool rules can allow any command (`Bash(*)`), so naming tools needs the server to allow `full`.
function refusedPermissions(
  settings: AgentSessionSettings,
  permissions: AgentPermissions,
): string | undefined {
  const allowed = [...settings.permissionModes].join(', ');
  if (!settings.permissionModes.has(permissions.mode))
    return `permissions.mode ${permissions.mode} is not allowed on this server (allowed: ${allowed})`;
  if (permissions.allowedTools !== undefined && !settings.permissionModes.has('full'))
    return `permissions.allowedTools needs the server to allow the full permission mode (allowed: ${allowed})`;
  return undefined;
}

// Answered before the body is validated: a disabled feature says so whatever was sent.
const disabled = (c: Context<ServerEnv>, _next: Next) =>
  Promise.resolve(apiError(c, 404, AGENT_SESSIONS_DISABLED_CODE, AGENT_SESSIONS_DISABLED_MESSAGE));

/** Agent sessions: Claude Code or Gemini CLI runs on this machine, stored as conversations. */
export function registerAgentSessionRoutes(app: ServerApp, deps: AgentSessionRouteDeps): void {
  const { registry } = deps;
  const settings = deps.agentSessions === undefined ? undefined : agentSessionSettings(deps.agentSessions);
  if (settings === undefined) {
    app.use('/v1/agent-sessions', disabled);
    app.use('/v1/agent-sessions/*', disabled);
  }

  app.openapi(runSessionRoute, async (c) => {
    if (settings === undefined)
      return apiError(c, 404, AGENT_SESSIONS_DISABLED_CODE, AGENT_SESSIONS_DISABLED_MESSAGE);
    const body = c.req.valid('json');
    if (!settings.agents.has(body.agent)) {
      return apiError(c, 400, 'INVALID_ARGUMENT', `agent ${body.agent} is not enabled on this server`);
    }
    const permissions = body.permissions ?? DEFAULT_SESSION_PERMISSIONS;
    const refused = refusedPermissions(settings, permissions);
    if (refused !== undefined) return apiError(c, 400, 'INVALID_ARGUMENT', refused);
    const directory = await resolveSessionCwd(settings.workspaceRoot, body.cwd);
    const conversationId = body.conversationId ?? `agent-${randomUUID()}`;
    const request = {
      agent: body.agent,
      prompt: body.prompt,
      conversationId,
      resume: body.conversationId !== undefined,
      directory,
      permissions: { mode: permissions.mode, ...definedFields({ allowedTools: permissions.allowedTools }) },
    };
    const started = await startRegisteredTurn<TurnEvent, AgentRunResult>(
      c,
      registry,
      conversationId,
      (signal, emit) =>
        runAgentSession(
          // The request's telemetry scope: the agent run is traced as its child.
          { ...deps, settings, ...definedFields({ telemetry: c.get('telemetry') ?? deps.telemetry }) },
          request,
          signal,
          emit,
        ),
    );
    if (started instanceof Response) return started;
    if (wantsEventStream(c)) {
      return streamTurn(
        c,
        (onEvent) => {
          started.listen(onEvent);
          return started.result.then(asTurnResult);
        },
        deps.logger,
        deps.streamLimits,
      );
    }
    started.listen(() => {});
    return c.json(agentSessionBody(await started.result), 200);
  });

  app.openapi(abortSessionRoute, (c) => {
    if (settings === undefined)
      return apiError(c, 404, AGENT_SESSIONS_DISABLED_CODE, AGENT_SESSIONS_DISABLED_MESSAGE);
    const { id } = c.req.valid('param');
    return c.json({ aborted: registry.abort(id, 'aborted by request') }, 202);
  });
}
