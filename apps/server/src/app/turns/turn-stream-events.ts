import type { ApprovalEntry, CairnErrorJSON, ConversationMessage } from '@cairn/core';
import type { ChatResult, RuntimeEventListener } from '@cairn/runtime';
import { type PublicError, publicTurnError, toPublicError } from '../http/api-error.js';

/**
 * The turn's last event: how it ended, as the client may see it; `waiting`: the approval requests it
 * stopped for (decide them with `POST …/approvals/{approvalId}`).
 */
export type DoneEvent = {
  success: boolean;
  error?: CairnErrorJSON | Omit<PublicError, 'status'>;
  waiting?: ApprovalEntry[];
};

/**
 * A message of the display view, streamed as a `display` event: a `tool_execution` with
 * `status: 'running'` is a call that started; a later one with the same id replaces it.
 */
export interface DisplayEvent {
  type: 'display';
  message: ConversationMessage;
}

/** What a turn reports while it runs. */
export type TurnEvent = Parameters<RuntimeEventListener>[0] | DisplayEvent;

/** A turn's events as kept for readers that come late (another tab, a reload): then how it ended. */
export type TurnStreamEvent = TurnEvent | { type: 'turn_done'; done: DoneEvent };

/** How a turn that returned ended. */
export const doneOf = (result: ChatResult): DoneEvent => ({
  success: result.success,
  ...(result.error === undefined ? {} : { error: publicTurnError(result.error) }),
  ...(result.waiting === undefined ? {} : { waiting: result.waiting }),
});

/** How a turn that threw ended (the lock or the store failed): never the backend's own words. */
export function doneOfThrown(error: unknown): DoneEvent {
  const { status: _status, ...shown } = toPublicError(error);
  return { success: false, error: shown };
}
