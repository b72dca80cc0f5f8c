import type { CairnError, ModelAdapter } from '@cairn/core';
import { definedFields } from '@cairn/core';
import type { ChatToolLoopResult } from '@cairn/loop';
import type { RuntimeAgent } from './runtime-types.js';
import type { TurnEnvironment } from './turn-environment.js';

/** What a turn is traced by: who runs it, on which model, in which conversation. */
interface TracedTurnRequest {
  conversationId: string;
  model: ModelAdapter;
  agent?: RuntimeAgent | undefined;
}

/** What a turn's end records. */
interface TracedTurnResult {
  loop?: ChatToolLoopResult<unknown>;
  error?: CairnError;
}

/**
 * A turn inside the telemetry's agent invocation (`invoke_agent`): the loop's model and tool calls
 * are its children, and its end records the turn's usage, last finish reason and error.
 */
export function traceTurn<REQUEST extends TracedTurnRequest, RESULT extends TracedTurnResult>(
  env: TurnEnvironment,
  request: REQUEST,
  play: (env: TurnEnvironment, request: REQUEST) => Promise<RESULT>,
): Promise<RESULT> {
  const { agent, model, conversationId } = request;
  const invocation = {
    conversationId,
    provider: model.provider,
    model: model.modelId,
    ...definedFields({ agentId: agent?.id, agentName: agent?.name ?? agent?.id }),
  };
  return env.telemetry.invokeAgent(invocation, async (scope) => {
    // The loop's model and tool calls are this invocation's children, however the context flows.
    const result = await play({ ...env, telemetry: scope.telemetry }, request);
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
