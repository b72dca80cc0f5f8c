import { useEffect, useRef, useState } from 'preact/hooks';
import { ConversationSession } from './conversation-session.js';
import type { ConversationViewState, SessionHooks } from './conversation-view-state.js';

/** The session of one conversation for a component's lifetime (key the component by the id). */
export function useConversationSession(
  conversationId: string,
  hooks: SessionHooks,
): { state: ConversationViewState; session: ConversationSession } {
  // The latest callbacks, without reopening the session when the parent re-renders.
  const latestHooks = useRef(hooks);
  latestHooks.current = hooks;
  const [session] = useState(
    () =>
      new ConversationSession(conversationId, {
        onUnauthorized: () => latestHooks.current.onUnauthorized(),
        onTurnEnd: () => latestHooks.current.onTurnEnd(),
        onListChanged: () => latestHooks.current.onListChanged(),
        onMessageStored: (message) => latestHooks.current.onMessageStored(message),
      }),
  );
  const [state, setState] = useState(session.snapshot);
  useEffect(() => {
    const unsubscribe = session.subscribe(() => setState(session.snapshot));
    void session.open();
    return () => {
      unsubscribe();
      session.close();
    };
  }, [session]);
  return { state, session };
}
