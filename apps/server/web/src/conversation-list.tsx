import type { ConversationSummary } from '@cairn/core';
import type { Ref } from 'preact';
import { useRef } from 'preact/hooks';
import { ConversationRow } from './conversations/conversation-row.js';
import { UndoDeletes } from './conversations/undo-deletes.js';
import { useLoadMoreOnScroll } from './conversations/use-load-more-on-scroll.js';

export interface ConversationListProps {
  /** The rows to show, most recently updated first (a search's matches while it is on). */
  conversations: readonly ConversationSummary[];
  selectedId: string | undefined;
  /** The conversation created on this page and not stored yet, when there is one. */
  draftId: string | undefined;
  error: string | undefined;
  searchText: string;
  /** The rows answer a search (not all conversations). */
  searching: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  deleted: readonly { id: string; title: string }[];
  /** The search field, for the shortcut that focuses it. */
  searchField: Ref<HTMLInputElement>;
  /** Shown as a drawer: a button closes it (none beside the chat). */
  onClose: (() => void) | undefined;
  onNewConversation(): void;
  onSearchTextChange(text: string): void;
  onLoadMore(): void;
  onRename(id: string, title: string): Promise<void>;
  onDelete(conversation: ConversationSummary): void;
  onUndoDelete(id: string): void;
}

/** The left pane: a search field, the conversations page by page, and a button to start one. */
export function ConversationList(props: ConversationListProps) {
  const { conversations, hasMore, searching } = props;
  const scroller = useRef<HTMLUListElement>(null);
  const sentinel = useRef<HTMLLIElement>(null);
  useLoadMoreOnScroll(scroller, sentinel, { rowCount: conversations.length, hasMore }, props.onLoadMore);
  return (
    <nav class="sidebar" aria-label="Conversations">
      <header class="sidebar-header">
        <span class="brand">Cairn</span>
        <button type="button" class="new-conversation" onClick={props.onNewConversation}>
          New conversation
        </button>
        {props.onClose !== undefined && (
          <button type="button" class="drawer-close" aria-label="Close conversations" onClick={props.onClose}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </header>
      <search class="conversation-search">
        <input
          ref={props.searchField}
          type="search"
          aria-label="Search conversations"
          placeholder="Search conversations"
          value={props.searchText}
          onInput={(event) => props.onSearchTextChange(event.currentTarget.value)}
        />
      </search>
      {props.error !== undefined && (
        <p class="error-banner" role="alert">
          {props.error}
        </p>
      )}
      {conversations.length === 0 ? (
        <p class="hint">{searching ? 'No conversations match.' : 'No conversations yet.'}</p>
      ) : (
        <ul class="conversation-list" ref={scroller}>
          {conversations.map((conversation) => (
            <ConversationRow
              key={conversation.id}
              conversation={conversation}
              selected={conversation.id === props.selectedId}
              draft={conversation.id === props.draftId}
              onRename={props.onRename}
              onDelete={props.onDelete}
            />
          ))}
          {hasMore && (
            // Scrolling near it loads the next page; the button is there for the keyboard (and when observing fails).
            <li key="load-more" class="load-more" ref={sentinel}>
              <button type="button" disabled={props.loadingMore} onClick={props.onLoadMore}>
                {props.loadingMore ? 'Loading…' : 'Load more'}
              </button>
            </li>
          )}
        </ul>
      )}
      <UndoDeletes deleted={props.deleted} onUndo={props.onUndoDelete} />
    </nav>
  );
}
