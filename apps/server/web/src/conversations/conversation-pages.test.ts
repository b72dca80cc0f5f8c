import type { ConversationSummary } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import {
  fromFirstPage,
  NO_CONVERSATIONS,
  withNextPage,
  withoutRow,
  withRefreshedFirstPage,
  withRow,
} from './conversation-pages.js';

// Row n was updated at minute n: higher n sorts first.
const row = (n: number, title?: string): ConversationSummary => ({
  id: `c${String(n).padStart(3, '0')}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: `2026-01-01T${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00.000Z`,
  messageCount: 2,
  lastSeq: 2,
  ...(title === undefined ? {} : { title }),
});
const rows = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => row(from - index));
const ids = (list: { rows: readonly ConversationSummary[] }) => list.rows.map((summary) => summary.id);

describe('conversation pages', () => {
  it('appends the page its cursor asked for, each id once', () => {
    const first = fromFirstPage({ conversations: rows(100, 51), nextCursor: 'after-51' });
    // c051 was updated between the pages and shows up again on the next one: it stays where it was.
    const second = withNextPage(first, 'after-51', { conversations: [row(51), ...rows(50, 1)] });
    expect(ids(second)).toEqual(ids({ rows: rows(100, 1) }));
    expect(second.nextCursor).toBeUndefined();
  });

  it('drops a page asked for before the list moved on', () => {
    const first = fromFirstPage({ conversations: rows(100, 51), nextCursor: 'after-51' });
    const refreshed = fromFirstPage({ conversations: rows(101, 52), nextCursor: 'after-52' });
    expect(withNextPage(refreshed, 'after-51', { conversations: rows(50, 1) })).toBe(refreshed);
    expect(withNextPage(first, 'after-51', { conversations: rows(50, 1) }).rows).toHaveLength(100);
  });

  it('keeps the pages loaded beyond a refreshed first page, and their cursor', () => {
    const loaded = withNextPage(
      fromFirstPage({ conversations: rows(100, 51), nextCursor: 'after-51' }),
      'after-51',
      { conversations: rows(50, 1), nextCursor: 'after-1' },
    );
    // Two new conversations, and c070 updated: they lead; c051 and c052 slip out of the first page.
    const page = [
      row(103),
      row(102),
      { ...row(70), updatedAt: '2026-01-01T01:42:00.000Z' },
      ...rows(100, 71),
      ...rows(69, 53),
    ];
    const refreshed = withRefreshedFirstPage(loaded, { conversations: page, nextCursor: 'after-53' });
    expect(ids(refreshed)).toEqual([...ids({ rows: page }), ...ids({ rows: rows(52, 1) })]);
    expect(new Set(ids(refreshed)).size).toBe(refreshed.rows.length);
    expect(refreshed.nextCursor).toBe('after-1');
  });

  it('drops rows missing from a refreshed first page that should be on it (deleted), and takes its cursor when nothing is kept', () => {
    const loaded = fromFirstPage({ conversations: rows(100, 51), nextCursor: 'after-51' });
    const page = [...rows(100, 91), ...rows(89, 50)]; // c090 deleted elsewhere
    const refreshed = withRefreshedFirstPage(loaded, { conversations: page, nextCursor: 'after-50' });
    expect(ids(refreshed)).toEqual(ids({ rows: page }));
    expect(refreshed.nextCursor).toBe('after-50');
  });

  it('takes a refreshed last page as the whole list', () => {
    const loaded = fromFirstPage({ conversations: rows(100, 51), nextCursor: 'after-51' });
    const refreshed = withRefreshedFirstPage(loaded, { conversations: rows(3, 1) });
    expect(ids(refreshed)).toEqual(['c003', 'c002', 'c001']);
    expect(refreshed.nextCursor).toBeUndefined();
    expect(withRefreshedFirstPage(loaded, { conversations: [] })).toEqual(NO_CONVERSATIONS);
  });

  it('replaces and removes a row by id', () => {
    const list = fromFirstPage({ conversations: rows(3, 1), nextCursor: 'after-1' });
    expect(withRow(list, row(2, 'Renamed')).rows[1]?.title).toBe('Renamed');
    expect(withRow(list, row(9)).rows).toEqual(list.rows);
    expect(ids(withoutRow(list, 'c002'))).toEqual(['c003', 'c001']);
    expect(withoutRow(list, 'c002').nextCursor).toBe('after-1');
  });
});
