import { readFile } from 'node:fs/promises';
import type { LogSummary } from './log-summary.js';
import { writeFileAtomic } from './write-file-atomic.js';

// 2: summaries carry the last record's checksum. 3: titles follow title records (renames), so an
// index an older version wrote (its titles blind to renames) is rebuilt rather than trusted.
const INDEX_VERSION = 3;

/** The listing cache: one summary per conversation, each tagged with the log size it describes. */
export type ConversationIndex = Map<string, LogSummary>;

/** Reads the index; a missing, unreadable or older-format index is empty (it is rebuilt from the logs). */
export async function readConversationIndex(file: string): Promise<ConversationIndex> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as {
      version?: number;
      conversations?: Record<string, LogSummary>;
    };
    if (parsed.version !== INDEX_VERSION || typeof parsed.conversations !== 'object') return new Map();
    return new Map(Object.entries(parsed.conversations ?? {}));
  } catch {
    return new Map();
  }
}

/** Replaces the index atomically (temp file + rename); it is a cache, so no fsync. */
export async function writeConversationIndex(file: string, index: ConversationIndex): Promise<void> {
  await writeFileAtomic(
    file,
    JSON.stringify({ version: INDEX_VERSION, conversations: Object.fromEntries(index) }),
    false,
  );
}
