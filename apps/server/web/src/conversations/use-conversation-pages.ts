import type { ConversationSummary } from '@cairn/core';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { UnauthorizedError } from '../api-client.js';
import { listConversationPage } from '../conversation-api.js';
import {
  fromFirstPage,
  NO_CONVERSATIONS,
  type PagedConversations,
  withNextPage,
  withoutRow,
  withRefreshedFirstPage,
  withRow,
} from './conversation-pages.js';

export interface ConversationPages {
  /** The rows of `shownQuery` (all conversations when empty) loaded so far. */
  list: PagedConversations;
  /** The query the rows answer: the one asked for once its first page has come. */
  shownQuery: string;
  /** The list's first page has come (or failed other than for the token). */
  settled: boolean;
  loadingMore: boolean;
  error: string | undefined;
  /** Reloads the first page (the rest stays merged); whether it came. */
  refresh(): Promise<boolean>;
  loadMore(): Promise<void>;
  update(row: ConversationSummary): void;
  remove(id: string): void;
}

interface Shown {
  query: string;
  list: PagedConversations;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The conversation list, or a search's results, page by page; a new `query` starts again from its first page. */
export function useConversationPages(query: string, onUnauthorized: () => void): ConversationPages {
  const [shown, setShown] = useState<Shown>({ query, list: NO_CONVERSATIONS });
  const [settled, setSettled] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string>();
  // Read by the async calls: what is shown and asked for now, not when they started.
  const latest = useRef({ query, shown, loadingMore: false, refreshes: 0 });
  latest.current.query = query;
  latest.current.shown = shown;
  const unauthorized = useRef(onUnauthorized);
  unauthorized.current = onUnauthorized;

  const failed = useCallback((failure: unknown) => {
    if (failure instanceof UnauthorizedError) return unauthorized.current();
    setError(messageOf(failure));
    setSettled(true);
  }, []);

  const refresh = useCallback(async () => {
    const asked = latest.current.query;
    const refreshNumber = ++latest.current.refreshes;
    try {
      const page = await listConversationPage({ query: asked });
      // A later refresh (or search) answers for the list now.
      if (refreshNumber !== latest.current.refreshes) return true;
      setShown((old) => ({
        query: asked,
        list: old.query === asked ? withRefreshedFirstPage(old.list, page) : fromFirstPage(page),
      }));
      setError(undefined);
      setSettled(true);
      return true;
    } catch (failure) {
      if (refreshNumber === latest.current.refreshes) failed(failure);
      return false;
    }
  }, [failed]);

  const loadMore = useCallback(async () => {
    const { query: asked, list } = latest.current.shown;
    const cursor = list.nextCursor;
    if (cursor === undefined || latest.current.loadingMore) return;
    latest.current.loadingMore = true;
    setLoadingMore(true);
    try {
      const page = await listConversationPage({ query: asked, cursor });
      setShown((old) =>
        old.query === asked ? { query: asked, list: withNextPage(old.list, cursor, page) } : old,
      );
    } catch (failure) {
      failed(failure);
    } finally {
      latest.current.loadingMore = false;
      setLoadingMore(false);
    }
  }, [failed]);

  useEffect(() => {
    void refresh();
  }, [query, refresh]);

  return {
    list: shown.list,
    shownQuery: shown.query,
    settled,
    loadingMore,
    error,
    refresh,
    loadMore,
    update: (row) => setShown((old) => ({ ...old, list: withRow(old.list, row) })),
    remove: (id) => setShown((old) => ({ ...old, list: withoutRow(old.list, id) })),
  };
}
