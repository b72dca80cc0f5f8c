import { CairnError } from '@cairn/core';

/** An append that held its lock so long that another process may have taken it over: nothing written. */
export function lockLapsed(conversationId: string): CairnError {
  return new CairnError(
    'STORE_UNAVAILABLE',
    `The append to conversation ${conversationId} took so long that its lock may have been taken over (lockStaleMs); no message was written, retry it`,
    { retryable: true, details: { conversationId } },
  );
}
