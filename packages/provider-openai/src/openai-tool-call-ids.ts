import { ToolCallAccumulator } from '@cairn/provider-utils';

/**
 * A tool-call accumulator whose ids, for the calls a compatible server sends without one, are
 * unique in the conversation (`call_<responseId>_<index>`): a tool result is matched by that id,
 * and `call_0` would repeat in every turn.
 */
export function createOpenAIToolCallAccumulator(responseId: () => string | undefined): ToolCallAccumulator {
  return new ToolCallAccumulator({
    generateId: (index) => `call_${responseId() ?? 'openai'}_${index}`,
  });
}
