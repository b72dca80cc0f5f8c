import { type AgentPermissions, type AgentRunResult, createAgentExecutor } from '@cairn/agent-executor';
import { CairnError, type ConversationStore, definedFields, type Telemetry } from '@cairn/core';
import { LiveDisplay } from '@cairn/message-processor';
import type { ChatResult } from '@cairn/runtime';
import type { ConversationEventBus } from '../../events/conversation-events.js';
import type { ConversationTurnLock } from '../../turn-lock/turn-lock.js';
import type { ServerLogger } from '../server-env.js';
import { abortOnLockLost } from '../turns/run-conversation-turn.js';
import { publishStored } from '../turns/run-turns.js';
import type { TurnEvent } from '../turns/turn-stream-events.js';
import type { AgentSessionAgent, AgentSessionSettings } from './agent-session-options.js';
import { type SessionDirectory, shownPath } from './agent-session-workspace.js';

export interface AgentSessionDependencies {
  store: ConversationStore;
  turnLock: ConversationTurnLock;
  events: ConversationEventBus;
  logger: ServerLogger;
  settings: AgentSessionSettings;
  telemetry?: Telemetry;
}

export interface AgentSessionRequest {
  agent: AgentSessionAgent;
  prompt: string;
  conversationId: string;
  /** Continue the agent's newest session recorded in the conversation (in `directory.cwd`). */
  resume: boolean;
  directory: SessionDirectory;
  /** Checked against the server's `permissionModes`; passed as the CLI's own flags. */
  permissions: AgentPermissions;
}

// The executor names the directory a resumable session was recorded in: the client gets it
// relative to the workspace root, never the server's absolute paths.
function withoutServerPaths(error: unknown, directory: SessionDirectory): unknown {
  const sessionCwd = CairnError.is(error, 'INVALID_ARGUMENT') ? error.details?.sessionCwd : undefined;
  if (typeof sessionCwd !== 'string') return error;
  return new CairnError(
    'INVALID_ARGUMENT',
    `the conversation's agent session was recorded in cwd ${JSON.stringify(shownPath(directory.root, sessionCwd))}, ` +
      `not ${JSON.stringify(shownPath(directory.root, directory.cwd))}: the agent resumes only sessions of its working directory`,
  );
}

/**
 * One agent session run: the agent CLI in its directory, through the executor (which stores the
 * prompt, the agent's messages and its transcript), while holding the conversation's turn lock like
 * a chat turn (stopped if that lock is lost). Each `AgentOutput` goes to `onEvent`, each stored message as `message_persisted`
 * (published to every instance), and the display view as `display` events, live. Rejects `INVALID_ARGUMENT` (nothing to resume) before storing
 * anything, and `LLM_ABORTED` when aborted while waiting for the lock.
 */
export async function runAgentSession(
  deps: AgentSessionDependencies,
  request: AgentSessionRequest,
  signal: AbortSignal,
  onEvent: (event: TurnEvent) => void,
): Promise<AgentRunResult> {
  const { conversationId, agent, directory } = request;
  const executor = createAgentExecutor({
    store: deps.store,
    agent: deps.settings.definition(agent),
    command: deps.settings.command(agent),
    cwd: directory.cwd,
    permissions: request.permissions,
    // The agent runs code the model wrote: only the variables it needs, none of the server's secrets.
    env: deps.settings.childEnv(),
    ...definedFields({ telemetry: deps.telemetry }),
  });
  // The display view, live: a call shows running when it starts, then finished (same id).
  const display = new LiveDisplay((message) => onEvent({ type: 'display', message }));
  const result = await deps.turnLock
    .run(
      conversationId,
      (lockLost) =>
        executor.run({
          conversationId,
          prompt: request.prompt,
          resume: request.resume,
          // The agent is stopped if the lock is lost: another instance may take the conversation.
          signal: abortOnLockLost(deps, conversationId, signal, lockLost),
          onEvent,
          onDisplayMessage: display.logged,
          onLiveDisplayMessage: display.live,
          onLogMessage(message) {
            publishStored(deps, conversationId, message);
            onEvent({ type: 'runtime', event: 'message_persisted', conversationId, message });
          },
        }),
      { signal },
    )
    .catch((error: unknown) => {
      throw withoutServerPaths(error, directory);
    });
  deps.logger.info(
    {
      conversationId,
      agent,
      success: result.success,
      exitCode: result.exitCode,
      ...(result.error === undefined ? {} : { errorCode: result.error.code }),
    },
    'agent session finished',
  );
  return result;
}

/** The run as a turn result, for the event stream's `done` (which reads `success` and `error`). */
export function asTurnResult(result: AgentRunResult): ChatResult {
  const { error } = result;
  return {
    conversationId: result.conversationId,
    success: result.success,
    ...(error === undefined ? {} : { error: new CairnError(error.code, error.message) }),
    usage: { turns: [], total: result.usage ?? { inputTokens: 0, outputTokens: 0 } },
    turns: result.turns ?? 0,
    text: result.text,
    finishReason: error === undefined ? 'stop' : error.code === 'LLM_ABORTED' ? 'aborted' : 'error',
  };
}

/** The JSON answer of a session run. */
export function agentSessionBody(result: AgentRunResult) {
  return {
    conversationId: result.conversationId,
    runId: result.runId,
    ...definedFields({ sessionId: result.sessionId }),
    success: result.success,
    exitCode: result.exitCode,
    signal: result.signal,
    ...definedFields({ error: result.error }),
    ...definedFields({ usage: result.usage }),
    ...definedFields({ costUsd: result.costUsd }),
    ...definedFields({ turns: result.turns }),
    ...definedFields({ durationMs: result.durationMs }),
    ...definedFields({ result: result.result }),
    messages: result.messages,
  };
}
