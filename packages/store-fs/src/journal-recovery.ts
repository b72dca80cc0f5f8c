import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import { acquireLock, type LockOptions } from './conversation-lock.js';
import { type JournalOwner, journalOwner } from './journal-owner.js';
import { decodeJournal, type JournalRecord } from './journal-record.js';
import { isMissing } from './missing-files.js';

// A journal of an owner that cannot be told alive or gone (another host name) is deleted once
// untouched this long: a live owner touches its files far more often (`JOURNAL_TOUCH_MS`).
export const UNKNOWN_JOURNAL_STALE_MS = 60 * 60 * 1000;

export interface JournalRecoveryOptions {
  /** The directory of the journal files. */
  dir: string;
  /** Runs `work` holding the directory's recovery lock (one recovering process at a time). */
  withLock: <T>(work: () => Promise<T>) => Promise<T>;
  /** Writes back into one conversation's log what of `records` it lacks, durably, under its lock. */
  replay: (conversationId: string, records: JournalRecord[]) => Promise<void>;
  now?: () => number;
}

// Journals to replay: a gone owner's (its records may be all that is left of an append after a
// power cut) and an unknown one's (it may be gone too). A live owner on this machine has its
// appends in the page cache, and this process's own journal is its own to retire.
const needsReplay = (owner: JournalOwner | undefined) => owner === 'gone' || owner === 'unknown';

/**
 * Writes back into the logs what the journals of processes that may be gone hold and the logs
 * lack, then deletes the journals whose owner is gone. A process killed with its machine running
 * left its appends in the page cache: their records are found in place and nothing is written. After
 * a power cut the records a journal sync made durable, and the logs never got, are written back.
 * Replaying is idempotent (a record is written only where its log holds zeros or a cut-short copy of
 * it), so replaying a journal whose owner still runs elsewhere is harmless, and a recovery cut short
 * is done again by the next. Returns how many journal files were replayed.
 */
export async function recoverJournals(options: JournalRecoveryOptions): Promise<number> {
  const candidates = async () => {
    const names = await readdir(options.dir).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    return names.filter((name) => needsReplay(journalOwner(name)));
  };
  if ((await candidates()).length === 0) return 0;
  const now = options.now ?? Date.now;
  return options.withLock(async () => {
    // Listed again under the lock: another process may have recovered them meanwhile.
    const names = await candidates();
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
      const gone =
        journalOwner(name) === 'gone' || now() - (await stat(path)).mtimeMs > UNKNOWN_JOURNAL_STALE_MS;
      if (gone) {
        await unlink(path).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        });
      }
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

/**
 * A store's recovery before its first read or write: `recoverJournals` under the journal
 * directory's recovery lock (one process recovering at a time), a failure as a retryable
 * `STORE_UNAVAILABLE`.
 */
export async function recoverStoreJournals(options: {
  dir: string;
  lockFile: string;
  lockOptions: LockOptions;
  replay: JournalRecoveryOptions['replay'];
}): Promise<void> {
  try {
    await recoverJournals({
      dir: options.dir,
      withLock: async (work) => {
        const lock = await acquireLock(options.lockFile, options.lockOptions);
        try {
          return await work();
        } finally {
          lock.release();
        }
      },
      replay: options.replay,
    });
  } catch (error) {
    throw new CairnError(
      'STORE_UNAVAILABLE',
      `Could not recover the journals in ${options.dir}: ${String(error)}`,
      {
        cause: error,
        retryable: true,
      },
    );
  }
}
