import { useCallback, useEffect, useState } from 'preact/hooks';
import {
  type ConversationSummary,
  createConversation,
  listConversations,
  UnauthorizedError,
} from './api-client.js';
import { ChatView } from './chat-view.js';
import { ConversationList } from './conversation-list.js';
import { TokenPrompt } from './token-prompt.js';
import { forgetToken, readToken, saveToken } from './token-store.js';
import { openConversation, useHashConversationId } from './use-hash-conversation-id.js';

type Access = 'checking' | 'needs-token' | 'ready';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The page: asks for the token when the API wants one, then the two panes. */
export function App() {
  const [access, setAccess] = useState<Access>('checking');
  const [tokenRejected, setTokenRejected] = useState(false);
  const [conversations, setConversations] = useState<ConversationSummary[]>([]);
  const [listError, setListError] = useState<string>();
  const selectedId = useHashConversationId();

  const askForToken = useCallback(() => {
    // A token we had was refused (wrong, or the server's changed); without one, this is the first visit.
    setTokenRejected(readToken() !== undefined);
    forgetToken();
    setAccess('needs-token');
  }, []);

  const refreshList = useCallback(async () => {
    try {
      setConversations(await listConversations());
      setListError(undefined);
      setAccess('ready');
    } catch (error) {
      if (error instanceof UnauthorizedError) return askForToken();
      setListError(messageOf(error));
      setAccess('ready');
    }
  }, [askForToken]);

  useEffect(() => {
    void refreshList();
  }, [refreshList]);

  const startConversation = async () => {
    try {
      openConversation(await createConversation());
    } catch (error) {
      if (error instanceof UnauthorizedError) return askForToken();
      setListError(messageOf(error));
    }
  };

  if (access === 'checking') return <p class="hint splash">Loading…</p>;
  if (access === 'needs-token') {
    return (
      <TokenPrompt
        rejected={tokenRejected}
        onSubmit={(token) => {
          saveToken(token);
          void refreshList();
        }}
      />
    );
  }
  const selected = conversations.find((conversation) => conversation.id === selectedId);
  return (
    <div class="layout">
      <ConversationList
        conversations={conversations}
        selectedId={selectedId}
        error={listError}
        onNewConversation={() => void startConversation()}
      />
      <main class="chat-pane">
        {selectedId === undefined ? (
          <div class="empty-chat">
            <p>Pick a conversation, or start a new one.</p>
          </div>
        ) : (
          <ChatView
            key={selectedId}
            conversationId={selectedId}
            title={selected?.title ?? 'New conversation'}
            onUnauthorized={askForToken}
            onTurnEnd={() => void refreshList()}
            onListChanged={() => void refreshList()}
          />
        )}
      </main>
    </div>
  );
}
