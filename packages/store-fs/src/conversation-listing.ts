import type { Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import {
  type ConversationMessage,
  type ConversationPage,
  type ConversationSummary,
  isSafeId,
  type ListConversationsOptions,
} from '@cairn/core';
import {
  conversationMatchesSearch,
  foldSearchText,
  normalizeListOptions,
  paginateMatchingSummaries,
  paginateSummaries,
} from '@cairn/storage';
import { readConversationIndex, writeConversationIndex } from './conversation-index.js';
import type { FsLayout } from './fs-layout.js';
import { checkRecordsEnd } from './log-padding.js';
import { decodeLog } from './log-record.js';
import { type LogSummary, summarize, toSummary } from './log-summary.js';
import { isMissing } from './missing-files.js';

/** What listing needs of the store. */
export interface ListingSource {
  layout: FsLayout;
  /** The store instance's summary of a log, if its state still describes the file `stats` are of. */
  cachedSummary(conversationId: string, stats: Stats): LogSummary | undefined;
  /** Migrates a conversation's legacy array to a log (under its lock); false when there is none. */
  migrateLegacy(conversationId: string): Promise<boolean>;
}

/**
 * One page of `listConversations`: most recently updated first, only those matching `search` when
 * there is one. No text index: each candidate's log is read (through `load` and its text cache),
 * newest first, only until the page is full.
 */
export async function listConversationPage(
  source: ListingSource & { load(conversationId: string): Promise<ConversationMessage[]> },
  options: ListConversationsOptions | undefined,
): Promise<ConversationPage> {
  // Refused (a bad limit, cursor or search) before any file is read.
  const normalized = normalizeListOptions(options);
  const summaries = await listConversationSummaries(source);
  const { search } = normalized;
  if (search === undefined) return paginateSummaries(summaries, options);
  const folded = foldSearchText(search);
  return paginateMatchingSummaries(
    summaries,
    normalized,
    async (summary) =>
      conversationMatchesSearch(summary.title, [], folded) ||
      conversationMatchesSearch(undefined, await source.load(summary.id), folded),
  );
}

/**
 * The conversations of the data directory, in no order: each one's summary from the index file,
 * the store's state or its log (only what is new since the index), the index brought up to date on
 * the way.
 */
export async function listConversationSummaries(source: ListingSource): Promise<ConversationSummary[]> {
  const entries = await readdir(source.layout.conversationsDir, { withFileTypes: true }).catch(
    (error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    },
  );
  const index = await readConversationIndex(source.layout.indexFile);
  let changed = false;
  const summaries: ConversationSummary[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!entry.isDirectory() || !isSafeId(entry.name)) continue;
    // One unreadable conversation must not hide the others: warn and list the rest.
    const summary = await summaryOf(source, entry.name, index.get(entry.name)).catch((error: unknown) => {
      process.emitWarning(`Cairn could not list conversation ${entry.name}: ${String(error)}`, {
        code: 'CAIRN_STORE_LIST',
      });
      return undefined;
    });
    if (summary === undefined) continue;
    seen.add(entry.name);
    if (index.get(entry.name) !== summary) {
      index.set(entry.name, summary);
      changed = true;
    }
    summaries.push(toSummary(entry.name, summary));
  }
  for (const id of index.keys()) {
    if (!seen.has(id)) {
      index.delete(id);
      changed = true;
    }
  }
  if (changed) await writeConversationIndex(source.layout.indexFile, index);
  return summaries;
}

/** A conversation's summary from the index, the store's state, or the log (only what is new). */
async function summaryOf(
  source: ListingSource,
  conversationId: string,
  indexed: LogSummary | undefined,
): Promise<LogSummary | undefined> {
  const file = source.layout.logFile(conversationId);
  let stats = await stat(file).catch((error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
  if (stats === undefined) {
    if (!(await source.migrateLegacy(conversationId))) return undefined;
    stats = await stat(file);
  }
  const cached = source.cachedSummary(conversationId, stats);
  if (cached !== undefined) return { ...cached };
  const handle = await open(file, 'r');
  try {
    // The indexed summary holds while its last record still ends where it did (a longer file
    // may only have more padding); records added after it are read on their own.
    const base =
      indexed?.ino === stats.ino && indexed.birthtimeMs === stats.birthtimeMs ? indexed : undefined;
    const check = base ? checkRecordsEnd(handle.fd, base.size, base.lastCrc, stats.size) : 'changed';
    if (base && check === 'same') return base;
    const extended = check === 'grown' ? base : undefined;
    const start = extended?.size ?? 0;
    const bytes = Buffer.alloc(stats.size - start);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
    const decoded = decodeLog(bytes.subarray(0, bytesRead), start, extended?.lastSeq ?? 0);
    // Summarise only up to the first bad byte (a torn tail may be an append in flight), so the
    // next listing continues from there instead of from the middle of a line.
    const end = decoded.corrupt[0]?.offset ?? decoded.end;
    const records = decoded.records.filter((_, index) => (decoded.offsets[index] ?? 0) < end);
    return summarize(records, { ...stats, size: end }, extended);
  } finally {
    await handle.close();
  }
}
