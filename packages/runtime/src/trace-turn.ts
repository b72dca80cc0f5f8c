import { definedFields } from '@cairn/core';
import type { TurnRequest, TurnResult } from './run-turn.js';
import type { TurnEnvironment } from './turn-environment.js';

/**
 * A turn inside the telemetry's agent invocation (`invoke_agent`): the loop's model and tool calls
 * are its children, and its end records the turn's usage, last finish reason and error.
 */
export function traceTurn(
  env: TurnEnvironment,
  request: TurnRequest,
  play: (env: TurnEnvironment, request: TurnRequest) => Promise<TurnResult>,
): Promise<TurnResult> {
  const { agent, model, conversationId } = request;
  const invocation = {
    conversationId,
    provider: model.provider,
    model: model.modelId,
    ...definedFields({ agentId: agent?.id, agentName: agent?.name ?? agent?.id }),
  };
  return env.telemetry.invokeAgent(invocation, async (scope) => {
    const result = await play(env, request);
    const { loop, error } = result;
    scope.end(
      definedFields({
        usage: loop?.usage.total,
        finishReason: loop?.finishReason,
        responseModel: loop?.message?.modelId,
        error,
      }),
    );
    return result;
  });
}
