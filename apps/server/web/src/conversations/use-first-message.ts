import { useEffect, useRef } from 'preact/hooks';
import { followMessages } from '../api-client.js';

/**
 * Calls `onStored` once the conversation's first message is stored (its live feed waits for it),
 * so a conversation whose first turn is still running can be listed. `undefined`: watch nothing.
 */
export function useFirstMessage(conversationId: string | undefined, onStored: () => void): void {
  const latestOnStored = useRef(onStored);
  latestOnStored.current = onStored;
  useEffect(() => {
    if (conversationId === undefined) return;
    const stop = new AbortController();
    const onEvent = (event: { type: string }) => {
      if (event.type !== 'message' || stop.signal.aborted) return;
      stop.abort();
      latestOnStored.current();
    };
    // A broken feed is no loss: the turn's end refreshes the list too.
    followMessages(conversationId, { fromSeq: 1 }, onEvent, stop.signal).catch(() => undefined);
    return () => stop.abort();
  }, [conversationId]);
}
