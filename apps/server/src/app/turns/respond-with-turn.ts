import { definedFields, type MessageContent, type ModelAdapter } from '@cairn/core';
import type { RuntimeEventListener } from '@cairn/runtime';
import type { Context } from 'hono';
import { isOutage, publicTurnError } from '../http/api-error.js';
import { callerId } from '../http/caller-id.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerEnv } from '../server-env.js';
import { tooManyTurns, wantsEventStream } from './registered-turn.js';
import { runConversationTurn, type TurnDependencies } from './run-conversation-turn.js';
import { streamTurn } from './turn-event-stream.js';

/**
 * Runs a turn of the conversation and answers with it: its event stream when the client asked for
 * one, else its result as JSON once it ends. 429 when the instance runs as many turns as it may.
 */
export async function respondWithTurn(
  c: Context<ServerEnv>,
  deps: TurnDependencies & Pick<RouteDeps, 'registry' | 'streamLimits'>,
  turn: {
    conversationId: string;
    /** Absent: the conversation is resumed (its decided calls run, then the model answers). */
    content?: MessageContent | undefined;
    branchFrom?: number | undefined;
    /** Another model than the runtime's default, for this turn. */
    model?: ModelAdapter | undefined;
  },
): Promise<Response> {
  const { registry } = deps;
  const { conversationId } = turn;
  const controller = registry.begin(conversationId);
  if (controller === undefined) return tooManyTurns(c);
  const run = (onEvent?: RuntimeEventListener) =>
    registry
      .track(
        runConversationTurn(deps, {
          conversationId,
          signal: controller.signal,
          onStarted: () => registry.started(controller),
          ...definedFields({
            content: turn.content,
            askedOf: callerId(c),
            onEvent,
            telemetry: c.get('telemetry'),
            branchFrom: turn.branchFrom,
            model: turn.model,
          }),
        }),
      )
      .finally(() => registry.end(conversationId, controller));
  if (wantsEventStream(c)) return streamTurn(c, run, deps.logger, deps.streamLimits);
  const result = await run();
  return c.json(
    {
      conversationId: result.conversationId,
      success: result.success,
      ...(result.message === undefined || isOutage(result.error) ? {} : { message: result.message }),
      ...(result.error === undefined ? {} : { error: publicTurnError(result.error) }),
      ...(result.waiting === undefined ? {} : { waiting: result.waiting }),
      usage: result.usage,
    },
    200,
  );
}
