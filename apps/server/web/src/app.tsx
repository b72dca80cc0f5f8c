import type { ConversationSummary } from '@cairn/core';
import { useCallback, useRef, useState } from 'preact/hooks';
import { createConversation, UnauthorizedError } from './api-client.js';
import { ChatView } from './chat-view.js';
import { deleteConversation, renameConversation } from './conversation-api.js';
import { ConversationList } from './conversation-list.js';
import { useConversationPages } from './conversations/use-conversation-pages.js';
import { useDebouncedValue } from './conversations/use-debounced-value.js';
import { usePendingDeletes } from './conversations/use-pending-deletes.js';
import { TokenPrompt } from './token-prompt.js';
import { forgetToken, readToken, saveToken } from './token-store.js';
import { openConversation, useHashConversationId } from './use-hash-conversation-id.js';

const SEARCH_DEBOUNCE_MS = 250;

/** A delete waiting out its undo window. */
interface DeletedConversation {
  id: string;
  title: string;
  /** It was open: Undo opens it again. */
  wasOpen: boolean;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A conversation created here that the server does not list yet (it has no message). */
function draftRow(id: string): ConversationSummary {
  const now = new Date().toISOString();
  return { id, createdAt: now, updatedAt: now, messageCount: 0, lastSeq: 0 };
}

/** The page: asks for the token when the API wants one, then the two panes. */
export function App() {
  const [needsToken, setNeedsToken] = useState(false);
  const [tokenRejected, setTokenRejected] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const [searchText, setSearchText] = useState('');
  const [draftId, setDraftId] = useState<string>();
  const selectedId = useHashConversationId();

  const askForToken = useCallback(() => {
    // A token we had was refused (wrong, or the server's changed); without one, this is the first visit.
    setTokenRejected(readToken() !== undefined);
    forgetToken();
    setNeedsToken(true);
  }, []);
  const reportFailure = (error: unknown, doing: string) => {
    if (error instanceof UnauthorizedError) return askForToken();
    setActionError(`${doing}: ${messageOf(error)}`);
  };

  // Clearing the field shows every conversation again at once; typing waits for a pause.
  const debouncedSearch = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const query = searchText.trim() === '' ? '' : debouncedSearch;
  const pages = useConversationPages(query, askForToken);
  const refreshList = () => void pages.refresh();

  const deletes = usePendingDeletes<DeletedConversation>((item) => {
    // Gone from the list as it leaves the pending ones (one render): it never shows again meanwhile.
    pages.remove(item.id);
    deleteConversation(item.id).catch((error: unknown) => {
      reportFailure(error, `Could not delete “${item.title}”`);
      refreshList();
    });
  });
  const deleteLater = (conversation: ConversationSummary) => {
    setActionError(undefined);
    const wasOpen = conversation.id === selectedId;
    deletes.schedule({ id: conversation.id, title: conversation.title ?? conversation.id, wasOpen });
    // An empty hash selects nothing: the chat pane closes the conversation.
    if (wasOpen) location.hash = '';
  };
  const undoDelete = (id: string) => {
    if (deletes.undo(id)?.wasOpen === true) openConversation(id);
  };
  const rename = async (id: string, title: string) => {
    setActionError(undefined);
    try {
      pages.update(await renameConversation(id, title));
    } catch (error) {
      if (error instanceof UnauthorizedError) askForToken();
      throw error;
    }
  };

  // The open conversation keeps its title while the list shown lacks its row (a search, pages not loaded).
  const seenTitles = useRef(new Map<string, string>()).current;
  for (const row of pages.list.rows) if (row.title !== undefined) seenTitles.set(row.id, row.title);

  const listed = pages.list.rows.some((row) => row.id === selectedId);
  const showDraft = draftId !== undefined && draftId === selectedId && !listed && pages.shownQuery === '';

  const startConversation = async () => {
    setActionError(undefined);
    try {
      const id = await createConversation();
      setDraftId(id);
      openConversation(id);
    } catch (error) {
      reportFailure(error, 'Could not start a conversation');
    }
  };

  if (needsToken) {
    return (
      <TokenPrompt
        rejected={tokenRejected}
        onSubmit={(token) => {
          saveToken(token);
          void pages.refresh().then((came) => came && setNeedsToken(false));
        }}
      />
    );
  }
  if (!pages.settled) return <p class="hint splash">Loading…</p>;
  const hidden = new Set(deletes.items.map((item) => item.id));
  const rows = [
    ...(showDraft ? [draftRow(draftId)] : []),
    ...pages.list.rows.filter((row) => !hidden.has(row.id)),
  ];
  const selected = rows.find((conversation) => conversation.id === selectedId);
  return (
    <div class="layout">
      <ConversationList
        conversations={rows}
        selectedId={selectedId}
        draftId={showDraft ? draftId : undefined}
        error={actionError ?? pages.error}
        searchText={searchText}
        searching={pages.shownQuery !== ''}
        hasMore={pages.list.nextCursor !== undefined}
        loadingMore={pages.loadingMore}
        deleted={deletes.items}
        onNewConversation={() => void startConversation()}
        onSearchTextChange={setSearchText}
        onLoadMore={pages.loadMore}
        onRename={rename}
        onDelete={deleteLater}
        onUndoDelete={undoDelete}
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
            title={selected?.title ?? seenTitles.get(selectedId) ?? 'New conversation'}
            onUnauthorized={askForToken}
            onTurnEnd={refreshList}
            onListChanged={refreshList}
            // A conversation whose first turn runs is listed once its message is stored; a rename elsewhere shows.
            onMessageStored={(message) => {
              if (showDraft || message.partType === 'title') void refreshList();
            }}
          />
        )}
      </main>
    </div>
  );
}
