import type { ModelAssistantMessage } from '@cairn/core';

/**
 * The message with each tool call id replaced by its position, wherever it appears (metadata
 * keyed by call id included): two responses to the same turn get different ids by design.
 */
export function normalizeToolCallIds(message: ModelAssistantMessage): unknown {
  let json = JSON.stringify(message);
  (message.tool_calls ?? []).forEach((call, index) => {
    json = json.split(JSON.stringify(call.id)).join(JSON.stringify(`tool-call-${index}`));
  });
  return JSON.parse(json) as unknown;
}
