import { INTERRUPTED_TOOL_RESULT_TEXT, type OpenAIToolCall, type ToolCallResult } from '@cairn/core';

/** The result of a call that will never get its real one (the loop failed before it ran). */
export function interruptedToolResult(call: OpenAIToolCall, reason: string): ToolCallResult {
  return {
    toolCallId: call.id,
    toolName: call.function.name,
    content: `${INTERRUPTED_TOOL_RESULT_TEXT} (${reason})`,
    isError: true,
    interrupted: true,
    durationMs: 0,
  };
}
