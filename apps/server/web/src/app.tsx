import type { ConversationSummary } from '@cairn/core';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { createConversation, UnauthorizedError } from './api-client.js';
import { ChatView } from './chat-view.js';
import { deleteConversation, renameConversation } from './conversation-api.js';
import { ConversationList } from './conversation-list.js';
import { useConversationPages } from './conversations/use-conversation-pages.js';
import { useDebouncedValue } from './conversations/use-debounced-value.js';
import { usePendingDeletes } from './conversations/use-pending-deletes.js';
import { ShortcutsDialog } from './layout/shortcuts-dialog.js';
import { SidebarDrawer } from './layout/sidebar-drawer.js';
import { useFocusAfterRender } from './layout/use-focus-after-render.js';
import { type ShortcutAction, useKeyboardShortcuts } from './layout/use-keyboard-shortcuts.js';
import { useMediaQuery } from './layout/use-media-query.js';
import { useStoredFlag } from './layout/use-stored-flag.js';
import { TokenPrompt } from './token-prompt.js';
import { forgetToken, readToken, saveToken } from './token-store.js';
import { openConversation, useHashConversationId } from './use-hash-conversation-id.js';

const SEARCH_DEBOUNCE_MS = 250;
// Below this width the sidebar becomes a drawer over the chat (a phone, a narrow window).
const NARROW_SCREEN = '(max-width: 720px)';
const SIDEBAR_ID = 'conversation-sidebar';
const SIDEBAR_COLLAPSED_KEY = 'cairn.sidebarCollapsed';

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
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useStoredFlag(SIDEBAR_COLLAPSED_KEY);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const sidebarShown = narrow ? drawerOpen : !collapsed;
  const menuButton = useRef<HTMLButtonElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const chatPane = useRef<HTMLElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const showSidebar = () => (narrow ? setDrawerOpen(true) : setCollapsed(false));
  // Another conversation shown, or the window widened: the drawer has done its job.
  useEffect(closeDrawer, [selectedId, narrow]);

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

  const hidden = new Set(deletes.items.map((item) => item.id));
  const rows = [
    ...(showDraft && draftId !== undefined ? [draftRow(draftId)] : []),
    ...pages.list.rows.filter((row) => !hidden.has(row.id)),
  ];

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

  const step = (by: number) => {
    const at = rows.findIndex((row) => row.id === selectedId);
    const next = at === -1 ? rows[0] : rows[Math.min(Math.max(at + by, 0), rows.length - 1)];
    if (next === undefined || next.id === selectedId) return false;
    openConversation(next.id);
    return true;
  };
  // Returns whether the key was used: an unused one keeps its usual effect (Escape closing the dialog).
  const runShortcut = (action: ShortcutAction): boolean => {
    if (needsToken || !pages.settled || (shortcutsOpen && action !== 'focus-search')) return false;
    switch (action) {
      case 'focus-search':
        setShortcutsOpen(false);
        showSidebar();
        focusAfterRender(() => searchField.current);
        return true;
      case 'new-conversation':
        void startConversation();
        return true;
      case 'focus-message': {
        const messageBox = chatPane.current?.querySelector<HTMLTextAreaElement>('.composer textarea');
        if (messageBox === null || messageBox === undefined || messageBox.disabled) return false;
        setDrawerOpen(false);
        focusAfterRender(() => messageBox);
        return true;
      }
      case 'previous-conversation':
        return step(-1);
      case 'next-conversation':
        return step(1);
      case 'show-shortcuts':
        setShortcutsOpen(true);
        return true;
      case 'close':
        // Escape never aborts a turn: it only closes what is open over the page.
        if (!(narrow && drawerOpen)) return false;
        setDrawerOpen(false);
        return true;
    }
  };
  useKeyboardShortcuts(runShortcut);

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
  const selected = rows.find((conversation) => conversation.id === selectedId);
  const layoutClass = narrow
    ? `layout is-narrow${drawerOpen ? ' drawer-open' : ''}`
    : `layout${collapsed ? ' sidebar-collapsed' : ''}`;
  return (
    <div class={layoutClass}>
      <SidebarDrawer
        id={SIDEBAR_ID}
        narrow={narrow}
        open={sidebarShown}
        onClose={closeDrawer}
        returnFocusTo={menuButton}
      >
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
          searchField={searchField}
          onClose={narrow ? closeDrawer : undefined}
          onNewConversation={() => void startConversation()}
          onSearchTextChange={setSearchText}
          onLoadMore={pages.loadMore}
          onRename={rename}
          onDelete={deleteLater}
          onUndoDelete={undoDelete}
        />
      </SidebarDrawer>
      {/* Inert under the open drawer: the keyboard and screen readers stay in the drawer, as the eye does. */}
      <main class="chat-pane" ref={chatPane} inert={narrow && drawerOpen}>
        <div class="pane-tools">
          <button
            ref={menuButton}
            type="button"
            class="tool-button"
            aria-label="Conversations"
            title={sidebarShown ? 'Hide conversations' : 'Show conversations'}
            aria-expanded={sidebarShown}
            aria-controls={SIDEBAR_ID}
            onClick={() => (narrow ? setDrawerOpen(!drawerOpen) : setCollapsed(!collapsed))}
          >
            <span aria-hidden="true">☰</span>
          </button>
          <button
            type="button"
            class="tool-button"
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            aria-haspopup="dialog"
            onClick={() => setShortcutsOpen(true)}
          >
            <span aria-hidden="true">?</span>
          </button>
        </div>
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
      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
    </div>
  );
}
