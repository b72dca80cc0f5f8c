import type { RunResult, RuntimeEventListener } from '@cairn/runtime';
import { runConversationId } from '@cairn/runtime';
import type { Context } from 'hono';
import { isOutage, publicTurnError } from '../http/api-error.js';
import type { RouteDeps } from '../route-deps.js';
import { publicRun } from '../routes/run-schemas.js';
import type { ServerEnv } from '../server-env.js';
import { startRegisteredTurn, wantsEventStream } from './registered-turn.js';
import { type RunTurn, type RunTurnDependencies, runRunTurn } from './run-turns.js';
import { streamTurn } from './turn-event-stream.js';

type TurnEvent = Parameters<RuntimeEventListener>[0];

/** A run turn's result as JSON. */
function turnBody(result: RunResult) {
  return {
    runId: result.runId,
    conversationId: result.conversationId,
    run: publicRun(result.state, result.conversationId),
    success: result.success,
    ...(result.message === undefined || isOutage(result.error) ? {} : { message: result.message }),
    ...(result.error === undefined ? {} : { error: publicTurnError(result.error) }),
    ...(result.waiting === undefined ? {} : { waiting: result.waiting }),
    usage: result.usage,
  };
}

/**
 * Runs a run's turn under the instance's turn cap; answers what failed before the turn started (an
 * unknown run or workflow) with its status, then the turn as JSON (`status`) or as an event stream.
 */
export async function respondWithRunTurn(
  c: Context<ServerEnv>,
  deps: RunTurnDependencies & Pick<RouteDeps, 'registry' | 'streamLimits'>,
  turn: RunTurn,
  status: 200 | 201,
): Promise<Response> {
  const conversationId = runConversationId(turn.runId);
  const started = await startRegisteredTurn<TurnEvent, RunResult>(
    c,
    deps.registry,
    conversationId,
    (signal, emit) => runRunTurn(deps, conversationId, turn, signal, emit),
  );
  if (started instanceof Response) return started;
  if (wantsEventStream(c)) {
    return streamTurn(
      c,
      (onEvent) => {
        started.listen(onEvent);
        return started.result;
      },
      deps.logger,
      deps.streamLimits,
    );
  }
  started.listen(() => {});
  const result = await started.result;
  if (status === 201) c.header('Location', `/v1/runs/${result.runId}`);
  return c.json(turnBody(result), status);
}
