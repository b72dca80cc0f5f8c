import { CairnError, type ConversationPage, type ConversationSummary } from '@cairn/core';

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

/** Checks `limit` (1 to `MAX_LIST_LIMIT`, default `DEFAULT_LIST_LIMIT`) and decodes `cursor`. */
export function normalizeListOptions(options: { cursor?: string; limit?: number } = {}): {
  cursor?: ListCursor;
  limit: number;
} {
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got ${String(limit)}`,
    );
  }
  return options.cursor === undefined ? { limit } : { cursor: decodeListCursor(options.cursor), limit };
}

/** The listing order: most recently updated first, then by id (the order SQL backends use too). */
export function compareSummaries(a: ListCursor, b: ListCursor): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** One page from all summaries (the in-memory and file stores, which list in process). */
export function paginateSummaries(
  summaries: readonly ConversationSummary[],
  options: { cursor?: string; limit?: number } = {},
): ConversationPage {
  const { cursor, limit } = normalizeListOptions(options);
  const sorted = [...summaries].sort(compareSummaries);
  const after =
    cursor === undefined ? sorted : sorted.filter((summary) => compareSummaries(summary, cursor) > 0);
  const conversations = after.slice(0, limit);
  const last = conversations.at(-1);
  return after.length > limit && last !== undefined
    ? { conversations, nextCursor: encodeListCursor(last) }
    : { conversations };
}
