import { CairnError } from '@cairn/core';

/** The turn was given up before it got the conversation: `work` never ran. */
export function turnAbortedError(conversationId: string, reason: unknown): CairnError {
  return new CairnError('LLM_ABORTED', 'Aborted while waiting for the conversation turn lock', {
    cause: reason,
    details: { conversationId },
  });
}
