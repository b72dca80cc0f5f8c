import type { Stats } from 'node:fs';
import { type ConversationSummary, definedFields, isTitleRecord } from '@cairn/core';
import { nextConversationTitle } from '@cairn/storage';
import type { LogRecord } from './log-record-types.js';

/** What the store knows about a conversation's log without reading it again. */
export interface LogSummary {
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  lastSeq: number;
  title?: string;
  /** Identity of the file the summary describes, and where its records end (its padding excluded). */
  ino: number;
  birthtimeMs: number;
  size: number;
  /** The checksum of the last record: the summary holds only while the records still end with it. */
  lastCrc?: string;
}

export function sameFile(summary: Pick<LogSummary, 'ino' | 'birthtimeMs'>, stats: FileFacts): boolean {
  return summary.ino === stats.ino && summary.birthtimeMs === stats.birthtimeMs;
}

/** The file facts a summary keeps (`size`: where the records end). */
export type FileFacts = Pick<Stats, 'ino' | 'birthtimeMs' | 'size' | 'mtimeMs'>;

export function factsOf(stats: Stats): FileFacts {
  return { ino: stats.ino, birthtimeMs: stats.birthtimeMs, size: stats.size, mtimeMs: stats.mtimeMs };
}

/** Folds records into a summary (a fresh one, or one being extended by a tail). */
export function summarize(
  records: readonly LogRecord[],
  stats: FileFacts,
  previous?: LogSummary,
): LogSummary {
  const first = records[0];
  const last = records.at(-1);
  // Only user messages and title records can give a title; most appends (assistant and tool
  // messages) skip the work.
  const title = records.some((record) => record.msg.role === 'user' || isTitleRecord(record.msg))
    ? nextConversationTitle(
        previous?.title,
        records.map((record) => record.msg),
      )
    : previous?.title;
  const lastCrc = last?.crc ?? previous?.lastCrc;
  return {
    // An empty log's placeholder time gives way to its first record's.
    createdAt:
      (previous?.messageCount ? previous.createdAt : first?.at) ?? new Date(stats.mtimeMs).toISOString(),
    updatedAt: last?.at ?? previous?.updatedAt ?? new Date(stats.mtimeMs).toISOString(),
    messageCount: (previous?.messageCount ?? 0) + records.length,
    lastSeq: last?.seq ?? previous?.lastSeq ?? 0,
    ...definedFields({ title, lastCrc }),
    ino: stats.ino,
    birthtimeMs: stats.birthtimeMs,
    size: stats.size,
  };
}

/** The summary as the store's listing gives it. */
export function toSummary(id: string, summary: LogSummary): ConversationSummary {
  const { createdAt, updatedAt, messageCount, lastSeq, title } = summary;
  return { id, createdAt, updatedAt, messageCount, lastSeq, ...definedFields({ title }) };
}
