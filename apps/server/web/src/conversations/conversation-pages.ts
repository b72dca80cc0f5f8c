import type { ConversationPage, ConversationSummary } from '@cairn/core';

/** The rows loaded so far, in the server's order, and where the next page starts (none: all loaded). */
export interface PagedConversations {
  rows: readonly ConversationSummary[];
  nextCursor: string | undefined;
}

export const NO_CONVERSATIONS: PagedConversations = { rows: [], nextCursor: undefined };

/** The server's listing order: most recently updated first, then by id. */
function compareRows(a: ConversationSummary, b: ConversationSummary): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Rows in order, each id once (the first one wins). */
function uniqueRows(rows: readonly ConversationSummary[]): ConversationSummary[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
}

/** A first page as the whole list (a new search, or the first load). */
export const fromFirstPage = (page: ConversationPage): PagedConversations => ({
  rows: uniqueRows(page.conversations),
  nextCursor: page.nextCursor,
});

/**
 * The list after reloading its first page. Rows loaded beyond it are kept when they sort after the
 * page's last row (the cursor is keyset, so the old one still resumes after them); rows that sort
 * before it but are missing from it are gone from the server. A last page is the whole list.
 */
export function withRefreshedFirstPage(list: PagedConversations, page: ConversationPage): PagedConversations {
  const last = page.conversations.at(-1);
  if (page.nextCursor === undefined || last === undefined) return fromFirstPage(page);
  const fresh = new Set(page.conversations.map((row) => row.id));
  const beyond = list.rows.filter((row) => !fresh.has(row.id) && compareRows(row, last) > 0);
  return {
    rows: uniqueRows([...page.conversations, ...beyond]),
    // Nothing kept beyond the page: the list ends where the page does.
    nextCursor: beyond.length === 0 ? page.nextCursor : list.nextCursor,
  };
}

/**
 * The list with the page that `cursor` asked for appended, without the rows it already has. A page
 * asked for before the list moved on (a refresh, another page) is dropped.
 */
export function withNextPage(
  list: PagedConversations,
  cursor: string,
  page: ConversationPage,
): PagedConversations {
  if (list.nextCursor !== cursor) return list;
  return { rows: uniqueRows([...list.rows, ...page.conversations]), nextCursor: page.nextCursor };
}

/** The list with `row` in place of the row with its id (as it was, when there is none). */
export const withRow = (list: PagedConversations, row: ConversationSummary): PagedConversations => ({
  ...list,
  rows: list.rows.map((old) => (old.id === row.id ? row : old)),
});

export const withoutRow = (list: PagedConversations, id: string): PagedConversations => ({
  ...list,
  rows: list.rows.filter((row) => row.id !== id),
});
