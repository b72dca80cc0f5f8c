import { useEffect, useState } from 'preact/hooks';

// The server's safe-id rule, loosely: anything else in the hash is not a conversation.
const CONVERSATION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

function conversationIdInHash(): string | undefined {
  let id: string;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return undefined; // A malformed escape: not one of our links.
  }
  return CONVERSATION_ID.test(id) ? id : undefined;
}

/** The open conversation, kept in the URL's hash so a reload (or a shared link) opens it again. */
export function useHashConversationId(): string | undefined {
  const [id, setId] = useState(conversationIdInHash);
  useEffect(() => {
    const onChange = () => setId(conversationIdInHash());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return id;
}

export function openConversation(id: string): void {
  location.hash = encodeURIComponent(id);
}
