import type { ConversationSummary } from './api-client.js';
import { timeAgo } from './format-time.js';

export interface ConversationListProps {
  conversations: readonly ConversationSummary[];
  selectedId: string | undefined;
  error: string | undefined;
  onNewConversation(): void;
}

/** The left pane: the conversations, most recently updated first, and a button to start one. */
export function ConversationList({
  conversations,
  selectedId,
  error,
  onNewConversation,
}: ConversationListProps) {
  return (
    <nav class="sidebar" aria-label="Conversations">
      <header class="sidebar-header">
        <span class="brand">Cairn</span>
        <button type="button" class="new-conversation" onClick={onNewConversation}>
          New conversation
        </button>
      </header>
      {error !== undefined && (
        <p class="error-banner" role="alert">
          {error}
        </p>
      )}
      {conversations.length === 0 ? (
        <p class="hint">No conversations yet.</p>
      ) : (
        <ul class="conversation-list">
          {conversations.map((conversation) => (
            <li key={conversation.id}>
              <a
                href={`#${encodeURIComponent(conversation.id)}`}
                aria-current={conversation.id === selectedId ? 'page' : undefined}
              >
                <span class="conversation-title">{conversation.title ?? conversation.id}</span>
                <span class="conversation-meta">
                  {conversation.messageCount} messages · {timeAgo(conversation.updatedAt)}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
