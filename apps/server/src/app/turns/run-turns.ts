import { CairnError, type ConversationMessage, type ConversationStore, definedFields } from '@cairn/core';
import type { AgentRuntime, RunEvent, RunResult, RuntimeEventListener } from '@cairn/runtime';
import type { ConversationEventBus } from '../../events/conversation-events.js';
import type { ConversationTurnLock } from '../../turn-lock/turn-lock.js';
import { errorFields } from '../http/error-fields.js';
import type { ServerLogger } from '../server-env.js';
import { abortOnLockLost } from './run-conversation-turn.js';

export interface RunTurnDependencies {
  runtime: AgentRuntime;
  store: ConversationStore;
  turnLock: ConversationTurnLock;
  events: ConversationEventBus;
  logger: ServerLogger;
}

/** One turn of a run: its first (`start`) or a later one (`continue`). */
export type RunTurn =
  | { kind: 'start'; runId: string; workflow: string; input?: string }
  | { kind: 'continue'; runId: string; userInput?: string };

/** Tells every instance (their `/events` clients) that a message of `conversationId` was stored. */
export function publishStored(
  deps: Pick<RunTurnDependencies, 'events' | 'logger'>,
  conversationId: string,
  message: ConversationMessage,
): void {
  // No seq means the store did not say where it landed: listeners re-check instead.
  const lastSeq = message.seq ?? -1;
  deps.events.publish({ conversationId, lastSeq }).catch((error: unknown) => {
    deps.logger.warn({ conversationId, ...errorFields(error) }, 'publish failed');
  });
}

/**
 * A run turn while holding its conversation's turn lock (as chat turns do: instances never
 * interleave turns of one conversation), publishing each stored message. The runtime's own events
 * go to `onEvent` except `run_step_changed`: the `run_state` record stored with each step says it.
 * A turn aborted while it waited for the lock resolves (nothing stored) like `runtime.chat` does.
 */
export async function runRunTurn(
  deps: RunTurnDependencies,
  conversationId: string,
  turn: RunTurn,
  signal: AbortSignal,
  onEvent: RuntimeEventListener,
): Promise<RunResult> {
  const listener = (event: RunEvent) => {
    if (event.type !== 'runtime') return onEvent(event);
    if (event.event === 'run_step_changed') return;
    if (event.event === 'message_persisted') publishStored(deps, conversationId, event.message);
    onEvent(event);
  };
  let started = false;
  let result: RunResult;
  try {
    result = await deps.turnLock.run(
      conversationId,
      (lockLost) => {
        started = true;
        // Another instance may take the conversation once the lock is lost: the turn stops then.
        const common = { signal: abortOnLockLost(deps, conversationId, signal, lockLost), onEvent: listener };
        return turn.kind === 'start'
          ? deps.runtime.runs.start({
              ...common,
              runId: turn.runId,
              workflow: turn.workflow,
              ...definedFields({ input: turn.input }),
            })
          : deps.runtime.runs.continue({
              ...common,
              runId: turn.runId,
              ...definedFields({ userInput: turn.userInput }),
            });
      },
      { signal },
    );
  } catch (error) {
    if (started || !CairnError.is(error, 'LLM_ABORTED')) throw error;
    result = await abortedBeforeStart(deps, conversationId, turn, error);
  }
  deps.logger.info(
    {
      runId: turn.runId,
      conversationId,
      success: result.success,
      status: result.state.status,
      modelCalls: result.turns,
      ...(result.error === undefined ? {} : { errorCode: result.error.code }),
    },
    turn.kind === 'start' ? 'run started' : 'run turn finished',
  );
  return result;
}

// Given up while waiting for the conversation: nothing was stored. A run that was to start does not
// exist, so there is nothing to report; a run to continue stands where it stood.
async function abortedBeforeStart(
  deps: RunTurnDependencies,
  conversationId: string,
  turn: RunTurn,
  error: CairnError,
): Promise<RunResult> {
  if (turn.kind === 'start') throw error;
  return {
    runId: turn.runId,
    conversationId,
    state: await deps.runtime.runs.get(turn.runId),
    success: false,
    error,
    usage: { turns: [], total: { inputTokens: 0, outputTokens: 0 } },
    turns: 0,
    text: '',
    finishReason: 'aborted',
  };
}
