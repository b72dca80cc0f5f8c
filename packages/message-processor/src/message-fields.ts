import type { ConversationMessage } from '@cairn/core';
import type { MessageFields } from './message-processor-options.js';

/**
 * Adds `fields` to a new message, as spreading them last into its literal would (same keys, same
 * order, same values), without the spread's copy when there are none.
 */
// The session fields are read once, when the processor is made, and set on each log message.
export function fieldsAdder(fields: MessageFields): (message: ConversationMessage) => ConversationMessage {
  const { mode, runId, agentId } = fields;
  if (mode === undefined && runId === undefined && agentId === undefined) return (message) => message;
  return (message) => {
    if (mode !== undefined) message.mode = mode;
    if (runId !== undefined) message.runId = runId;
    if (agentId !== undefined) message.agentId = agentId;
    return message;
  };
}
