import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isOrphanedJournal } from './journal-owner.js';
import { decodeJournal, type JournalRecord } from './journal-record.js';

export interface JournalRecoveryOptions {
  /** The directory of the journal files. */
  dir: string;
  /** Runs `work` holding the directory's recovery lock (one recovering process at a time). */
  withLock: <T>(work: () => Promise<T>) => Promise<T>;
  /** Writes back into one conversation's log what of `records` it lacks, durably, under its lock. */
  replay: (conversationId: string, records: JournalRecord[]) => Promise<void>;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The journals of processes that are gone (`isOrphanedJournal`), written back into the logs and
 * deleted. A process killed with its machine running left its appends in the page cache: their
 * records are found in place and nothing is written. After a power cut the records a journal sync
 * made durable, and the logs never got, are written back. Replaying is idempotent: a recovery cut
 * short is done again by the next. Returns how many journal files were recovered.
 */
export async function recoverJournals(options: JournalRecoveryOptions): Promise<number> {
  const orphans = async () => {
    const names = await readdir(options.dir).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    return names.filter(isOrphanedJournal);
  };
  if ((await orphans()).length === 0) return 0;
  return options.withLock(async () => {
    // Listed again under the lock: another process may have recovered them meanwhile.
    const names = await orphans();
    for (const name of names) {
      const path = join(options.dir, name);
      const bytes = await readFile(path).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (bytes === undefined) continue;
      for (const [conversationId, records] of byConversation(decodeJournal(bytes))) {
        await options.replay(conversationId, records);
      }
      await unlink(path).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    }
    return names.length;
  });
}

/** The records grouped by conversation, each group in the journal's order. */
function byConversation(records: JournalRecord[]): Map<string, JournalRecord[]> {
  const groups = new Map<string, JournalRecord[]>();
  for (const record of records) {
    const group = groups.get(record.conversationId);
    if (group === undefined) groups.set(record.conversationId, [record]);
    else group.push(record);
  }
  return groups;
}
