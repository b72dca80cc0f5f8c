import { useEffect, useState } from 'react';
import { Chat } from './chat.tsx';
import type { CairnUIMessage } from './chat-message.ts';
import { conversationIdFromUrl } from './conversation-url.ts';
import { loadStoredMessages } from './stored-messages.ts';

type Loaded = { messages: CairnUIMessage[] } | { error: string };

/** Opens the conversation named in the URL with what is stored of it, then the chat. */
export function App() {
  const [conversationId] = useState(conversationIdFromUrl);
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  useEffect(() => {
    loadStoredMessages(conversationId).then(
      (messages) => setLoaded({ messages }),
      (error: unknown) => setLoaded({ error: error instanceof Error ? error.message : String(error) }),
    );
  }, [conversationId]);
  if (loaded === undefined) return <p className="loading">Loading…</p>;
  if ('error' in loaded) {
    return (
      <p className="error" role="alert">
        {loaded.error}
      </p>
    );
  }
  return <Chat conversationId={conversationId} initialMessages={loaded.messages} />;
}
