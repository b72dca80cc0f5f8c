import {
  CairnError,
  type ConversationMessage,
  definedFields,
  type MessageContent,
  type ModelAdapter,
  type Telemetry,
} from '@cairn/core';
import type { AgentRuntime, ChatResult, RuntimeEventListener } from '@cairn/runtime';
import type { ConversationEventBus } from '../../events/conversation-events.js';
import type { ConversationTurnLock } from '../../turn-lock/turn-lock.js';
import { errorFields } from '../http/error-fields.js';
import type { ServerLogger } from '../server-env.js';
import type { RunningStreams } from '../streams/running-streams.js';
import { doneOf, doneOfThrown, type TurnStreamEvent } from './turn-stream-events.js';

export interface TurnDependencies {
  runtime: AgentRuntime;
  turnLock: ConversationTurnLock;
  events: ConversationEventBus;
  logger: ServerLogger;
  /** Every turn's events, kept while it runs, for readers that come late (`GET …/turn`). */
  runningTurns: RunningStreams<TurnStreamEvent>;
}

export interface ConversationTurn {
  conversationId: string;
  /** What the user said; absent: the conversation is resumed from the store (`runtime.resume`). */
  content?: MessageContent;
  /** Who may decide the approvals the turn asks for (the caller who started it). */
  askedOf?: string;
  signal: AbortSignal;
  onEvent?: RuntimeEventListener;
  /** The request's telemetry scope: the turn is traced as its child. */
  telemetry?: Telemetry;
  /** The turn got its conversation's lock: it runs now (before, it waited behind another turn). */
  onStarted?: () => void;
  /** The user message starts a branch in place of the one at this seq (see `ChatParams.branchFrom`). */
  branchFrom?: number;
  /** Another model than the runtime's default, for this turn. */
  model?: ModelAdapter;
}

// What `runtime.chat` itself answers for a turn cancelled before it started: nothing was stored.
function abortedBeforeStart(conversationId: string, error: CairnError): ChatResult {
  return {
    conversationId,
    success: false,
    error,
    usage: { turns: [], total: { inputTokens: 0, outputTokens: 0 } },
    turns: 0,
    text: '',
    finishReason: 'aborted',
  };
}

/**
 * The turn's signal, also aborted when its conversation's lock is lost mid-turn (the database session
 * holding it ended): another instance may start a turn then, so this one stops and stores its abort.
 * A lock that passes no signal (one written before `lockLost` existed) cannot be lost.
 */
export function abortOnLockLost(
  deps: Pick<TurnDependencies, 'logger'>,
  conversationId: string,
  signal: AbortSignal,
  lockLost: AbortSignal | undefined,
): AbortSignal {
  if (lockLost === undefined) return signal;
  const warn = () =>
    deps.logger.warn(
      { conversationId, ...errorFields(lockLost.reason) },
      'turn lock lost; aborting the turn',
    );
  if (lockLost.aborted) warn();
  else lockLost.addEventListener('abort', warn, { once: true });
  return AbortSignal.any([signal, lockLost]);
}

/**
 * One chat turn while holding the conversation's turn lock (so instances never interleave turns),
 * telling every instance about each message as soon as it is stored. Its events are kept while it
 * runs (from the moment it waits for the lock), so another tab or a reloaded page can follow it.
 */
export async function runConversationTurn(
  deps: TurnDependencies,
  turn: ConversationTurn,
): Promise<ChatResult> {
  const { log, finish } = deps.runningTurns.begin(turn.conversationId);
  try {
    const result = await runLockedTurn(deps, turn, (event) => log.push(event));
    log.push({ type: 'turn_done', done: doneOf(result) });
    return result;
  } catch (error) {
    log.push({ type: 'turn_done', done: doneOfThrown(error) });
    throw error;
  } finally {
    finish();
  }
}

async function runLockedTurn(
  deps: TurnDependencies,
  turn: ConversationTurn,
  record: (event: TurnStreamEvent) => void,
): Promise<ChatResult> {
  const { conversationId } = turn;
  const publish = (message: ConversationMessage) => {
    // No seq means the store did not say where it landed: listeners re-check instead.
    const lastSeq = message.seq ?? -1;
    deps.events.publish({ conversationId, lastSeq }).catch((error: unknown) => {
      deps.logger.warn({ conversationId, ...errorFields(error) }, 'publish failed');
    });
  };
  let started = false;
  let result: ChatResult;
  try {
    result = await deps.turnLock.run(
      conversationId,
      (lockLost) => {
        started = true;
        turn.onStarted?.();
        const params = {
          conversationId,
          signal: abortOnLockLost(deps, conversationId, turn.signal, lockLost),
          ...definedFields({ telemetry: turn.telemetry, model: turn.model, askedOf: turn.askedOf }),
          onEvent: (event: Parameters<RuntimeEventListener>[0]) => {
            if (event.type === 'runtime' && event.event === 'message_persisted') publish(event.message);
            record(event);
            turn.onEvent?.(event);
          },
        };
        return turn.content === undefined
          ? deps.runtime.resume(params)
          : deps.runtime.chat({
              ...params,
              userInput: turn.content,
              ...definedFields({ branchFrom: turn.branchFrom }),
            });
      },
      { signal: turn.signal },
    );
  } catch (error) {
    if (started || !CairnError.is(error, 'LLM_ABORTED')) throw error;
    result = abortedBeforeStart(conversationId, error);
  }
  deps.logger.info(
    {
      conversationId,
      success: result.success,
      modelCalls: result.turns,
      ...(result.error === undefined ? {} : { errorCode: result.error.code }),
    },
    'turn finished',
  );
  return result;
}
