import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, futimesSync, openSync, write, writevSync } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { FileSyncer } from './file-syncer.js';
import { journalFileName } from './journal-owner.js';
import { encodeJournalRecord, type JournalRecord } from './journal-record.js';
import { JournalSync } from './journal-sync.js';
import { zeros } from './log-padding.js';

// A journal file is written ahead with this many zero bytes (as the logs are with durability
// 'append'), so a sync of its records flushes data only; a full one is replaced by a fresh file.
const DEFAULT_SEGMENT_BYTES = 8 * 1024 * 1024;
const ZERO_CHUNK = 1024 * 1024;
// A full file's logs are synced this many at a time: each opens its log on the main thread first,
// and a thousand opens in a row would hold the event loop for tens of milliseconds.
const CHECKPOINT_PARALLEL = 8;
// How often the owner touches its journal files, so a process that cannot tell whether the owner
// runs (another host name) sees them in use (see `UNKNOWN_JOURNAL_STALE_MS`).
export const JOURNAL_TOUCH_MS = 10 * 60 * 1000;
const writeAt = promisify(write);

/** A log's identity, as its records are checked against it on recovery. */
export interface LogIdentity {
  ino: number;
  birthtimeMs: number;
}

export interface WriteAheadJournalOptions {
  /** The directory of the journal files (one project's). */
  dir: string;
  syncer: FileSyncer;
  /** A conversation's log file: a retired journal's logs are synced by path. */
  logFile: (conversationId: string) => string;
  segmentBytes?: number;
  /**
   * The journal's syncs run through `syncer` on the main thread instead of in a thread of their own
   * (tests hold and fail them).
   */
  syncsThroughSyncer?: boolean;
  /** The sync thread's sync function as source (tests make it fail). */
  syncCall?: string;
}

interface Segment {
  path: string;
  fd: number;
  /** Its number in the sync loop's files (set once it is the current file). */
  file: number;
  closed: boolean;
  /** Where the records written so far end. */
  position: number;
  /** The conversations whose logs this segment holds records of, with the log each went to. */
  logs: Map<string, LogIdentity>;
}

/** A record not known synced yet: kept to be written again after a failed sync. */
interface Unsynced {
  ticket: number;
  segment: Segment;
  position: number;
  buffers: Buffer[];
}

/**
 * Group commit across conversations: every journaled append's bytes, already written to its log
 * (the page cache), are written again to this process's journal at once, and one `fdatasync` of the
 * journal makes all appends written before it durable, whichever conversation they went to. The
 * syncs run in a loop of their own (`JournalSync`), each starting as the last returns. The
 * logs themselves are synced when their journal file is retired (full, or the store closing);
 * then the file is deleted. After a crash of the machine, the next store to open the directory
 * writes back into the logs whatever of a dead process's journal is missing there
 * (`recoverJournals`).
 */
export class WriteAheadJournal {
  #current: Segment | undefined;
  #next: Promise<Segment> | undefined;
  // The sync loop syncs the files in order: a full file's last records are synced before any of the
  // next file's, so a sync covers every record written before it (durability 'turn' syncs a turn's
  // records at its end, whichever file they went to).
  readonly #sync: JournalSync;
  readonly #unsynced: Unsynced[] = [];
  // Full segments whose logs are being synced before the file is deleted (no append waits for it),
  // and those whose checkpoint failed (tried again at close).
  readonly #retiring = new Map<Segment, Promise<void>>();
  readonly #unretired = new Set<Segment>();
  // The journal directory's own entry made durable (once: the directory may be new).
  #dirEntrySynced = false;
  #closed = false;
  #touch: NodeJS.Timeout | undefined;

  constructor(private readonly options: WriteAheadJournalOptions) {
    this.#sync = new JournalSync({
      ...(options.syncsThroughSyncer === true ? { syncer: options.syncer } : {}),
      ...(options.syncCall === undefined ? {} : { syncCall: options.syncCall }),
      rewrite: (file, synced) => this.#rewrite(file, synced),
    });
  }

  // Touches the files in use (the current one, and full ones whose logs are being synced) now and then.
  #startTouching(): void {
    if (this.#touch !== undefined) return;
    this.#touch = setInterval(() => {
      const now = new Date();
      for (const segment of [this.#current, ...this.#retiring.keys()]) {
        if (segment === undefined || segment.closed) continue;
        try {
          futimesSync(segment.fd, now, now);
        } catch {
          // A file that cannot be touched is still written and synced; only its age is off.
        }
      }
    }, JOURNAL_TOUCH_MS);
    this.#touch.unref();
  }

  get #segmentBytes(): number {
    return this.options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
  }

  /** Starts making the first journal file, so the first append finds it ready. */
  prepare(): void {
    if (this.#current === undefined && !this.#closed) this.#next ??= this.#nextSegment();
  }

  /** Waits until the journal has room for the next records (a fresh file when the last is full). */
  async reserve(): Promise<void> {
    if (this.#closed) throw new Error('the journal is closed');
    const current = this.#current;
    const used = current === undefined ? 0 : current.position;
    if (current !== undefined && used < this.#segmentBytes) {
      // Half full: the next file is made ahead, off the appends' path.
      if (used >= this.#segmentBytes / 2) this.#next ??= this.#nextSegment();
      return;
    }
    this.#next ??= this.#nextSegment();
    const making = this.#next;
    const next = await making;
    if (this.#next === making) this.#next = undefined;
    // Another append may have rotated while this one waited (to this same file).
    if (this.#current !== current) return;
    // The sync loop takes the new file once the last one's records are synced.
    try {
      next.file = this.#sync.open(next.fd);
    } catch (error) {
      // Kept for the next try.
      this.#next ??= making;
      throw error;
    }
    this.#current = next;
    this.#startTouching();
    if (current !== undefined) this.#retire(current);
  }

  /**
   * Journals `bytes`, just written at `offset` of the conversation's log (after `reserve()`, with no
   * wait between): the record is written to the journal file at once (its page cache), and the
   * returned ticket is what `durable()` waits for.
   */
  record(conversationId: string, log: LogIdentity, offset: number, bytes: Buffer): number {
    const segment = this.#current;
    if (segment === undefined) throw new Error('reserve() the journal before recording');
    const record: JournalRecord = {
      conversationId,
      ino: log.ino,
      birthtimeMs: log.birthtimeMs,
      offset,
      bytes,
    };
    const buffers = encodeJournalRecord(record);
    const position = segment.position;
    writeAll(segment.fd, buffers, position);
    segment.position += buffers[0].length + buffers[1].length;
    const ticket = this.#sync.written();
    // The records a sync has covered are not needed again.
    const synced = this.#sync.synced;
    let done = 0;
    while (done < this.#unsynced.length && (((this.#unsynced[done]?.ticket ?? 0) - synced) | 0) <= 0) done++;
    if (done > 0) this.#unsynced.splice(0, done);
    this.#unsynced.push({ ticket, segment, position, buffers });
    // The identity alone (the caller's object may be a log's whole cached state).
    const known = segment.logs.get(conversationId);
    if (known === undefined || known.ino !== log.ino || known.birthtimeMs !== log.birthtimeMs) {
      segment.logs.set(conversationId, { ino: log.ino, birthtimeMs: log.birthtimeMs });
    }
    return ticket;
  }

  /** Settles the durable waits whose sync completed (see `JournalSync.poll`). */
  poll(): void {
    this.#sync.poll();
  }

  /**
   * Resolves once the record of `ticket` is durable: after a sync of the journal that began after it
   * was written. Rejects if that sync failed.
   */
  durable(ticket: number): Promise<void> {
    return this.#sync.durable(ticket);
  }

  /** Syncs the logs of every journal file and deletes the files (the store closing). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#touch);
    const current = this.#current;
    this.#current = undefined;
    if (current !== undefined) {
      this.#sync.end(current.file);
      this.#retire(current);
    }
    const next = this.#next;
    this.#next = undefined;
    await Promise.allSettled([...this.#retiring.values()]);
    if (next !== undefined) {
      const unused = await next.catch(() => undefined);
      if (unused !== undefined) {
        closeSync(unused.fd);
        await unlink(unused.path).catch(() => undefined);
      }
    }
    // One more try for a checkpoint that failed: what still fails is left for recovery.
    await Promise.allSettled([...this.#unretired].map((segment) => this.#checkpoint(segment)));
    await this.#sync.close();
  }

  // The next file, made ahead. One that could not be made is forgotten (the append waiting for it
  // fails; the next makes another), never left as an unhandled rejection.
  #nextSegment(): Promise<Segment> {
    const next = this.#makeSegment();
    next.catch(() => {
      if (this.#next === next) this.#next = undefined;
    });
    return next;
  }

  // A new journal file: zero-filled, and durable with its directory entry (and the directory's own,
  // the first time) before any record is in it.
  async #makeSegment(): Promise<Segment> {
    await mkdir(this.options.dir, { recursive: true });
    const path = join(this.options.dir, journalFileName(randomBytes(6).toString('hex')));
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      for (let at = 0; at < this.#segmentBytes; at += ZERO_CHUNK) {
        const length = Math.min(ZERO_CHUNK, this.#segmentBytes - at);
        await writeAt(fd, zeros(length), 0, length, at);
      }
      await this.options.syncer.sync(fd);
      await this.#syncDirectory(this.options.dir);
      if (!this.#dirEntrySynced) {
        await this.#syncDirectory(dirname(this.options.dir));
        this.#dirEntrySynced = true;
      }
    } catch (error) {
      closeSync(fd);
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return { path, fd, file: -1, closed: false, position: 0, logs: new Map() };
  }

  // A full segment (ended in the sync loop, which syncs its last records before the next file's, so
  // the next file's syncs wait for one sync, not for its logs): in the background, once the loop has
  // left it, its logs are synced and it is deleted.
  #retire(segment: Segment): void {
    void this.#checkpoint(segment);
  }

  // After a failed sync of `file`, its records after ticket `synced` written again where they were
  // (the kernel may have dropped their pages with the error).
  #rewrite(file: number, synced: number): void {
    for (const record of this.#unsynced) {
      if (record.segment.file !== file || ((record.ticket - synced) | 0) <= 0) continue;
      // Given up on and closed (its logs synced instead): its descriptor's number may be another file's.
      if (record.segment.closed) throw new Error('the journal file was retired');
      writeAll(record.segment.fd, record.buffers, record.position);
    }
  }

  // Once the loop has left it (its records synced, or its syncs given up on), a full segment's logs
  // are synced and the file deleted. A failure keeps the file (tried again at close, and recovered
  // from should this process die first).
  #checkpoint(segment: Segment): Promise<void> {
    const running = this.#retiring.get(segment);
    if (running !== undefined) return running;
    this.#unretired.delete(segment);
    const attempt = (async () => {
      // Given up on (a failure that cannot be mended): the logs' own syncs make its records durable.
      if (segment.file >= 0) await this.#sync.finished(segment.file).catch(() => undefined);
      if (!segment.closed) {
        segment.closed = true;
        closeSync(segment.fd);
      }
      const logs = [...segment.logs];
      let next = 0;
      const syncNext = async () => {
        for (let entry = logs[next++]; entry !== undefined; entry = logs[next++]) {
          await this.#syncLog(entry[0], entry[1]);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CHECKPOINT_PARALLEL, logs.length) }, syncNext));
      await unlink(segment.path).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
    })();
    this.#retiring.set(segment, attempt);
    attempt.then(
      () => this.#retiring.delete(segment),
      () => {
        this.#retiring.delete(segment);
        this.#unretired.add(segment);
      },
    );
    return attempt;
  }

  async #syncDirectory(path: string): Promise<void> {
    const dir = openSync(path, constants.O_RDONLY);
    try {
      await this.options.syncer.sync(dir);
    } finally {
      closeSync(dir);
    }
  }

  async #syncLog(conversationId: string, identity: LogIdentity): Promise<void> {
    let fd: number;
    try {
      fd = openSync(this.options.logFile(conversationId), constants.O_RDONLY);
    } catch (error) {
      // Deleted since: nothing of it to keep.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const stats = fstatSync(fd);
      // Replaced since (deleted and made again, or rewritten by a repair, which synced it).
      if (stats.ino !== identity.ino || stats.birthtimeMs !== identity.birthtimeMs) return;
      await this.options.syncer.sync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

// Buffers written at `position` with as many calls as it takes (a short write goes on from where it
// stopped).
function writeAll(fd: number, buffers: Buffer[], position: number): void {
  let rest = buffers;
  let at = position;
  for (;;) {
    let written = writevSync(fd, rest, at);
    at += written;
    const left: Buffer[] = [];
    for (const buffer of rest) {
      if (written >= buffer.length) {
        written -= buffer.length;
        continue;
      }
      left.push(written > 0 ? buffer.subarray(written) : buffer);
      written = 0;
    }
    if (left.length === 0) return;
    rest = left;
  }
}
