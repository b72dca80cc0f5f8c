import { AGENT_PERMISSION_MODES, AllowedToolSchema } from '@cairn/agent-executor';
import { CairnErrorCodeSchema, TokenUsageSchema } from '@cairn/core';
import { z } from '@hono/zod-openapi';
import { AGENT_SESSION_AGENTS } from '../agent-sessions/agent-session-options.js';
import { cwdSyntaxProblem } from '../agent-sessions/agent-session-workspace.js';
import type { ApiErrorCode } from '../http/api-error.js';
import { ConversationMessageSchema, SafeIdSchema } from '../http/api-schemas.js';

export const AgentSessionBodySchema = z
  .object({
    agent: z.enum(AGENT_SESSION_AGENTS).openapi({
      description: 'Claude Code (`claude`), Gemini CLI (`gemini`), Codex CLI (`codex`) or Qwen Code (`qwen`)',
    }),
    prompt: z
      .string()
      .min(1)
      .max(100_000)
      .refine((text) => text.trim() !== '', 'must not be blank'),
    cwd: z
      .string()
      .min(1)
      .max(1024)
      .superRefine((cwd, ctx) => {
        const problem = cwdSyntaxProblem(cwd);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .openapi({
        description:
          "The agent's working directory, relative to the server's workspace root (the root when absent); " +
          'it must exist, and neither `..` nor symbolic links may lead out of the root',
        example: 'projects/site',
      }),
    permissions: z
      .object({
        mode: z.enum(AGENT_PERMISSION_MODES).openapi({
          description:
            'read-only: read and search, edits and commands refused; edit: also edit files; full: everything without asking',
        }),
        allowedTools: z
          .array(
            z
              .string()
              .max(200)
              .refine(
                (tool) => AllowedToolSchema.safeParse(tool).success,
                'must be a tool name, optionally with a rule: Bash(git log:*)',
              ),
          )
          .max(100)
          .optional()
          .openapi({
            description:
              "More tools the agent may use without asking, in the CLI's own syntax (`Bash(npm test)`, `run_shell_command(git)`); needs `full` among the server's `permissionModes`",
          }),
      })
      .strict()
      .optional()
      .openapi({
        description:
          "What the agent may do without asking, passed as the CLI's own flags (never as raw arguments). Default `{ mode: 'read-only' }`; the server's `agentSessions.permissionModes` lists the modes a request may ask for",
      }),
    conversationId: SafeIdSchema.optional().openapi({
      description:
        'Resume: the conversation of an earlier session, whose agent session (recorded in the same `cwd`) the agent continues. A new `agent-<uuid>` conversation when absent',
    }),
  })
  .openapi('AgentSessionRequest');

/** `:id` of the agent-session routes: the session's conversation id (a failure is `INVALID_ID`). */
export const AgentSessionParamsSchema = z.object({
  id: SafeIdSchema.openapi({
    param: { name: 'id', in: 'path' },
    description: "The session's conversation id",
  }),
});

export const AgentSessionResultSchema = z
  .object({
    conversationId: z.string().openapi({ description: 'Pass as `conversationId` to resume the session' }),
    runId: z.string().openapi({ description: 'Set as `runId` on every message of this run' }),
    sessionId: z.string().optional().openapi({ description: "The agent CLI's own session id" }),
    success: z.boolean().openapi({
      description:
        'The process exited with 0 and the CLI reported no failure; else `error` says why (also stored as an error message)',
    }),
    exitCode: z.number().int().nullable(),
    signal: z.string().nullable().openapi({ description: 'The signal that ended the process, if one did' }),
    error: z.object({ code: CairnErrorCodeSchema, message: z.string() }).optional(),
    usage: TokenUsageSchema.optional(),
    costUsd: z.number().optional(),
    turns: z.number().int().optional(),
    durationMs: z.number().optional(),
    result: z.string().optional().openapi({ description: 'The final text of the agent' }),
    messages: z
      .array(ConversationMessageSchema)
      .openapi({ description: 'The log messages stored by this run, the prompt first' }),
  })
  .openapi('AgentSessionResult');

export const AGENT_SESSION_EVENTS_DESCRIPTION =
  'Sent when the request has `Accept: text/event-stream`. Events: `agent_output` (data: an `AgentOutput` ' +
  "converted from the CLI's output, `session_start` with its session id first; `retry`, `task_progress` " +
  'and `status` events say the CLI retries the model, runs a sub-agent or background task, or was interrupted) for each event; ' +
  '`message` (data: a ConversationMessage, `id`: its seq) for each stored message; `display` (data: a ' +
  'message of the display view, as `toDisplayMessages` gives it) live: when a tool call starts, the text ' +
  "before it and the call as a `tool_execution` with `toolExecution.status: 'running'`, then the finished " +
  'execution under the same `id` (replace the running one); finally `done` ' +
  '(data: `{ success, error? }`). Disconnecting does not stop the agent: use `POST /v1/agent-sessions/{id}/abort`.';

/** The code of the answer when agent sessions are off: its own, so a client can tell it from a wrong path. */
export const AGENT_SESSIONS_DISABLED_CODE: ApiErrorCode = 'AGENT_SESSIONS_DISABLED';

export const AGENT_SESSIONS_DISABLED_MESSAGE =
  'agent sessions are disabled on this server: they run Claude Code or Gemini CLI, which run code. ' +
  'Enable them with the agentSessions option ({ workspaceRoot, agents?, commands? })';
