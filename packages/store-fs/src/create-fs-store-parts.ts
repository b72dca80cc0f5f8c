import { CairnError, type LeaseStore } from '@cairn/core';
import type { LockOptions } from './conversation-lock.js';
import type { ConversationLogOptions } from './conversation-log.js';
import type { FileSyncer } from './file-syncer.js';
import { FsLayout } from './fs-layout.js';
import { FsLeaseStore } from './fs-lease-store.js';
import type { FsConversationStoreOptions, FsDurability } from './fs-store-options.js';
import { LockLeases } from './lock-leases.js';
import { warnQuarantine } from './quarantine.js';
import { SharedSyncQueue } from './shared-sync-queue.js';
import { WriteAheadJournal } from './write-ahead-journal.js';

// Open descriptors are bounded: idle logs beyond this are closed (and re-read on next use). A server
// with a thousand conversations going keeps them all open (Node raises its descriptor limit to the
// hard limit at start), where 256 meant re-reading a whole log on most turns.
const DEFAULT_MAX_OPEN_LOGS = 2048;

/**
 * What tests swap in: `syncer` replaces the sync threads (tests count and fail syncs through it);
 * `journalSegmentBytes` makes journal files small (tests of their rotation); `journalSyncCall`
 * replaces the journal sync thread's `fdatasyncSync` (source; tests).
 */
export interface FsStoreInternals {
  syncer?: FileSyncer;
  journalSegmentBytes?: number;
  journalSyncCall?: string;
}

/** The parts a file store is made of, from its options; the store itself only runs operations on them. */
export interface FsStoreParts {
  layout: FsLayout;
  durability: FsDurability;
  maxOpenLogs: number;
  lockOptions: LockOptions;
  locks: LockLeases;
  leases: LeaseStore;
  syncer: FileSyncer;
  /** Where appends are journaled for their syncs (durability 'turn' and 'append'). */
  journal: WriteAheadJournal | undefined;
  /** Shared by every conversation's log. */
  logOptions: ConversationLogOptions;
}

/**
 * Reads the store's options (refusing an unknown durability before anything is started) and builds
 * its parts. `assertOpen` is the store's: the lease store refuses work once the store is closed.
 */
export function createFsStoreParts(
  options: FsConversationStoreOptions,
  internals: FsStoreInternals,
  assertOpen: () => void,
): FsStoreParts {
  const layout = new FsLayout(options.rootDir, options.projectId ?? 'default');
  const durability = options.durability ?? 'turn';
  const maxOpenLogs = options.maxOpenLogs ?? DEFAULT_MAX_OPEN_LOGS;
  if (!['none', 'turn', 'append'].includes(durability)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `durability must be none, turn or append, got ${String(durability)}`,
    );
  }
  const lockOptions: LockOptions = {
    staleMs: options.lockStaleMs ?? 30_000,
    timeoutMs: options.lockTimeoutMs ?? 10_000,
  };
  const locks = new LockLeases(lockOptions);
  const leases = new FsLeaseStore(layout, { sync: durability !== 'none', assertOpen });
  const onQuarantine = options.onQuarantine ?? warnQuarantine;
  const syncer = internals.syncer ?? new SharedSyncQueue();
  const journal =
    durability === 'none'
      ? undefined
      : new WriteAheadJournal({
          dir: layout.journalDir,
          syncer,
          // A syncer the tests pass runs the journal's syncs too; otherwise they have a thread of their own.
          syncsThroughSyncer: internals.syncer !== undefined,
          ...(internals.journalSyncCall === undefined ? {} : { syncCall: internals.journalSyncCall }),
          logFile: (conversationId) => layout.logFile(conversationId),
          ...(internals.journalSegmentBytes === undefined
            ? {}
            : { segmentBytes: internals.journalSegmentBytes }),
        });
  const logOptions: ConversationLogOptions = {
    layout,
    syncDirectories: durability !== 'none',
    preallocate: durability === 'append',
    syncer,
    journal,
    onQuarantine,
  };
  return { layout, durability, maxOpenLogs, lockOptions, locks, leases, syncer, journal, logOptions };
}
