import { definedFields } from '../objects/defined-fields.js';
import type { ConversationMessage } from './conversation-message.js';

/** The text of a tool result written for a call whose real result never came. */
export const INTERRUPTED_TOOL_RESULT_TEXT = 'Interrupted: no result was recorded for this tool call.';

/** What `createInterruptedToolResult` needs. */
export interface InterruptedToolResultInit {
  id: string;
  toolCallId: string;
  toolName?: string;
  createdAt: string;
  /** Why the result is missing ("the agent exited", "no result after 600000 ms"); appended to the text. */
  reason?: string;
}

/**
 * A `tool` message answering a call that will never get its real result, so the log keeps every
 * call answered. Marked `interrupted` (and `isError`) so UIs show it as unfinished, not as failed.
 */
export function createInterruptedToolResult(init: InterruptedToolResultInit): ConversationMessage {
  return {
    id: init.id,
    role: 'tool',
    createdAt: init.createdAt,
    tool_call_id: init.toolCallId,
    content:
      init.reason === undefined
        ? INTERRUPTED_TOOL_RESULT_TEXT
        : `${INTERRUPTED_TOOL_RESULT_TEXT} (${init.reason})`,
    isError: true,
    interrupted: true,
    partType: 'tool_result',
    ...definedFields({ toolName: init.toolName }),
  };
}
