import { CairnError } from '@cairn/core';
import type { Context } from 'hono';
import { apiError } from '../http/api-error.js';
import type { ServerEnv } from '../server-env.js';
import type { TurnResultLike } from '../server-metrics.js';
import { type StartedTurn, startTurn } from './run-turn-start.js';
import type { TurnRegistry } from './turn-registry.js';

/** 429 with `Retry-After`: this instance runs as many turns as it may. */
export function tooManyTurns(c: Context<ServerEnv>) {
  c.header('Retry-After', '1');
  return apiError(c, 429, 'TOO_MANY_TURNS', 'too many turns are running; retry shortly');
}

/** Whether the client asked for the turn as server-sent events. */
export const wantsEventStream = (c: Context<ServerEnv>) =>
  /\btext\/event-stream\b/i.test(c.req.header('accept') ?? '');

/**
 * Begins a turn of `conversationId` under the instance's turn cap (429 when full), counted and
 * ended in the registry, and waits for its first event (see `startTurn`): a failure before it is
 * thrown for the route to answer with its own status; an abort before it stored nothing (409).
 */
export async function startRegisteredTurn<E, R extends TurnResultLike>(
  c: Context<ServerEnv>,
  registry: TurnRegistry,
  conversationId: string,
  work: (signal: AbortSignal, emit: (event: E) => void) => Promise<R>,
): Promise<StartedTurn<E, R> | Response> {
  const controller = registry.begin(conversationId);
  if (controller === undefined) return tooManyTurns(c);
  try {
    return await startTurn<E, R>((emit) =>
      registry.track(work(controller.signal, emit)).finally(() => registry.end(conversationId, controller)),
    );
  } catch (error) {
    if (!CairnError.is(error, 'LLM_ABORTED')) throw error;
    return apiError(c, 409, 'LLM_ABORTED', 'aborted before it started; nothing was stored');
  }
}
