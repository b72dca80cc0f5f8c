import {
  CairnError,
  type ConversationPage,
  type ConversationSummary,
  type ListConversationsOptions,
  MAX_SEARCH_LENGTH,
} from '@cairn/core';

/** Where a page of `listConversations` ends: the last row's sort key. */
export interface ListCursor {
  updatedAt: string;
  id: string;
}

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 1000;

/** The cursor is opaque to callers: base64url of the last row's `[updatedAt, id]`. */
export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id])).toString('base64url');
}

/** Throws `INVALID_ARGUMENT` for a cursor this module did not produce. */
export function decodeListCursor(cursor: string): ListCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [updatedAt, id] = parsed;
      if (typeof updatedAt === 'string' && typeof id === 'string') return { updatedAt, id };
    }
  } catch {
    // fall through to the typed error
  }
  throw new CairnError('INVALID_ARGUMENT', 'Invalid listConversations cursor');
}

/** `listConversations` options checked: the cursor decoded, the limit defaulted. */
export interface NormalizedListOptions {
  cursor?: ListCursor;
  limit: number;
  /** As given (1 to `MAX_SEARCH_LENGTH` characters); absent: no search. */
  search?: string;
}

function checkSearch(search: unknown): string {
  const length = typeof search === 'string' ? Array.from(search).length : 0;
  if (typeof search !== 'string' || length < 1 || length > MAX_SEARCH_LENGTH) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `search must be a string of 1 to ${MAX_SEARCH_LENGTH} characters, got ${typeof search === 'string' ? `${length} characters` : typeof search}`,
    );
  }
  return search;
}

/**
 * Checks `limit` (1 to `MAX_LIST_LIMIT`, default `DEFAULT_LIST_LIMIT`) and `search` (1 to
 * `MAX_SEARCH_LENGTH` characters), and decodes `cursor`.
 */
export function normalizeListOptions(options: ListConversationsOptions = {}): NormalizedListOptions {
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got ${String(limit)}`,
    );
  }
  return {
    limit,
    ...(options.cursor === undefined ? {} : { cursor: decodeListCursor(options.cursor) }),
    ...(options.search === undefined ? {} : { search: checkSearch(options.search) }),
  };
}

/** The listing order: most recently updated first, then by id (the order SQL backends use too). */
export function compareSummaries(a: ListCursor, b: ListCursor): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function sortedAfter(summaries: readonly ConversationSummary[], cursor: ListCursor | undefined) {
  const sorted = [...summaries].sort(compareSummaries);
  return cursor === undefined ? sorted : sorted.filter((summary) => compareSummaries(summary, cursor) > 0);
}

function toPage(rows: ConversationSummary[], limit: number): ConversationPage {
  const conversations = rows.slice(0, limit);
  const last = conversations.at(-1);
  return rows.length > limit && last !== undefined
    ? { conversations, nextCursor: encodeListCursor(last) }
    : { conversations };
}

/** One page from all summaries (the in-memory and file stores, which list in process); no search. */
export function paginateSummaries(
  summaries: readonly ConversationSummary[],
  options: ListConversationsOptions = {},
): ConversationPage {
  const { cursor, limit } = normalizeListOptions(options);
  return toPage(sortedAfter(summaries, cursor), limit);
}

/**
 * One page of the summaries `matches` accepts, in listing order: candidates are tried one at a
 * time and only until the page (and one more row, for `nextCursor`) is full, so a first page of a
 * search over a large store reads only as many conversations as it must.
 */
export async function paginateMatchingSummaries(
  summaries: readonly ConversationSummary[],
  options: NormalizedListOptions,
  matches: (summary: ConversationSummary) => boolean | Promise<boolean>,
): Promise<ConversationPage> {
  const rows: ConversationSummary[] = [];
  for (const summary of sortedAfter(summaries, options.cursor)) {
    if (await matches(summary)) rows.push(summary);
    if (rows.length > options.limit) break;
  }
  return toPage(rows, options.limit);
}
