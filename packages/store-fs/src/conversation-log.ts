import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  open,
  openSync,
  readSync,
  type Stats,
  statSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { CairnError, type ConversationMessage } from '@cairn/core';
import type { FileSyncer } from './file-syncer.js';
import type { FsLayout } from './fs-layout.js';
import type { JournalRecord } from './journal-record.js';
import { checkRecordsEnd, preallocatedSize, zeros } from './log-padding.js';
import { type DecodedLog, decodeLog } from './log-record.js';
import type { LogRecord } from './log-record-types.js';
import { factsOf, type LogSummary, sameFile, summarize } from './log-summary.js';
import { migrateLegacyConversation } from './migrate-legacy-conversation.js';
import { type QuarantineReport, writeQuarantine } from './quarantine.js';
import type { WriteAheadJournal } from './write-ahead-journal.js';
import { writeFileAtomic } from './write-file-atomic.js';

// A raw descriptor (fs/promises would wrap it in a FileHandle).
const openFile = promisify(open);

interface LogState extends LogSummary {
  fd: number;
  /** The file's size as last seen: `size` plus its zero padding. */
  allocated: number;
  /** idempotencyKey → the first seq and length of the append that used it. */
  keys: Map<string, { firstSeq: number; count: number }>;
  /** message id → its seq: an append checks its ids here, without reading the log. */
  ids: Map<string, number>;
}

export interface ConversationLogOptions {
  layout: FsLayout;
  syncDirectories: boolean;
  /**
   * Pad logs with zeros ahead of their records (durability 'append'): a sync then only flushes
   * data, not the file's size, so it costs one journal write less.
   */
  preallocate: boolean;
  /** Runs the syncs (fdatasync) off the event loop. */
  syncer: FileSyncer;
  /**
   * Where appends are journaled (durability 'turn' and 'append'): an append's sync is the journal's,
   * shared by every conversation's appends written meanwhile. None with durability 'none'.
   */
  journal: WriteAheadJournal | undefined;
  onQuarantine: (report: QuarantineReport) => void;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Adds records' idempotency keys and message ids (a legacy log may repeat an id: the first stays). */
function index({ keys, ids }: Pick<LogState, 'keys' | 'ids'>, records: readonly LogRecord[]): void {
  for (const record of records) {
    if (record.key !== undefined)
      keys.set(record.key, { firstSeq: record.seq, count: (record.last ?? record.seq) - record.seq + 1 });
    if (!ids.has(record.msg.id)) ids.set(record.msg.id, record.seq);
  }
}

/** Reads `length` bytes at `position` of an open file. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

/**
 * One conversation's append-only log, as seen by one store instance. Every method that changes or
 * trusts the cached state runs under the conversation's cross-process lock (the store takes it);
 * another process may have appended, repaired or deleted the file since, so `refresh` re-checks
 * the file's identity and length and reads only what is new.
 */
export class ConversationLog {
  #state: LogState | undefined;
  /** A sync failed: what the cache says was written may not be in the file; read it again. */
  #suspect = false;
  readonly #file: string;
  /** The conversation's lock file (the store takes the lock; the path is kept here, worked out once). */
  readonly lockFile: string;

  constructor(
    readonly conversationId: string,
    private readonly options: ConversationLogOptions,
  ) {
    this.#file = options.layout.logFile(conversationId);
    this.lockFile = options.layout.lockFile(conversationId);
  }

  /** The state as of the last refresh or write (valid while the lock has been held since). */
  get cached(): LogState | undefined {
    return this.#suspect ? undefined : this.#state;
  }

  /** The cached summary if it still describes the file on disk (no lock needed to use it for listing). */
  cachedSummary(stats: Stats): LogSummary | undefined {
    const state = this.cached;
    return state &&
      sameFile(state, stats) &&
      checkRecordsEnd(state.fd, state.size, state.lastCrc, stats.size) === 'same'
      ? state
      : undefined;
  }

  /** Brings the state up to date with the file (migrating a legacy array, quarantining bad bytes). Under the lock. */
  async refresh(): Promise<LogState | undefined> {
    let stats = statOrUndefined(this.#file);
    if (stats === undefined) {
      this.close();
      const migrated = await migrateLegacyConversation(this.conversationId, this.options);
      if (!migrated) return undefined;
      stats = statSync(this.#file);
    }
    const state = this.#suspect ? undefined : this.#state;
    if (state !== undefined && sameFile(state, stats)) {
      state.allocated = stats.size;
      const check = checkRecordsEnd(state.fd, state.size, state.lastCrc, stats.size);
      if (check === 'same') return state;
      if (check === 'grown') {
        const tail = decodeLog(
          readAt(state.fd, state.size, stats.size - state.size),
          state.size,
          state.lastSeq,
        );
        if (tail.corrupt.length === 0) {
          index(state, tail.records);
          Object.assign(state, summarize(tail.records, { ...factsOf(stats), size: tail.end }, state));
          return state;
        }
      }
    }
    return this.#load();
  }

  async #load(): Promise<LogState> {
    this.close();
    const buffer = await readFile(this.#file);
    let decoded = decodeLog(buffer);
    if (decoded.corrupt.length > 0) {
      await this.#quarantine(buffer, decoded);
      decoded = decodeLog(await readFile(this.#file));
    }
    const fd = openSync(this.#file, constants.O_RDWR);
    const stats = fstatSync(fd);
    const indexes: Pick<LogState, 'keys' | 'ids'> = { keys: new Map(), ids: new Map() };
    index(indexes, decoded.records);
    const summary = summarize(decoded.records, { ...factsOf(stats), size: decoded.end });
    this.#state = { ...summary, fd, allocated: stats.size, ...indexes };
    this.#suspect = false;
    return this.#state;
  }

  /**
   * Moves corrupt spans to the side file, then removes them from the log: a corrupt tail by
   * truncation, a corrupt line in the middle by rewriting the log without it (temp file + rename).
   * Under the lock.
   */
  async #quarantine(buffer: Buffer, current: DecodedLog): Promise<void> {
    const quarantineFile = this.options.layout.quarantineFile(this.conversationId);
    const at = new Date().toISOString();
    await writeQuarantine(
      quarantineFile,
      current.corrupt.map((span) => ({
        header: { at, offset: span.offset, length: span.length, reason: span.reason },
        bytes: buffer.subarray(span.offset, span.offset + span.length),
      })),
    );
    const firstBad = current.corrupt[0]?.offset ?? buffer.length;
    if (current.offsets.every((offset) => offset < firstBad)) {
      const fd = openSync(this.#file, 'r+');
      try {
        ftruncateSync(fd, firstBad);
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } else {
      // Good records are whole lines: each runs to its newline.
      const kept = current.offsets.map((offset) => buffer.subarray(offset, buffer.indexOf(0x0a, offset) + 1));
      await writeFileAtomic(this.#file, Buffer.concat(kept), true);
    }
    for (const span of current.corrupt) {
      this.options.onQuarantine({ conversationId: this.conversationId, quarantineFile, ...span });
    }
  }

  /** Creates the log file (and its directory entry, durably when asked). Under the lock. */
  async create(): Promise<LogState> {
    // No O_APPEND: records go where the records end, which is before the padding. On libuv's pool:
    // creating an entry waits for the file system's journal, ~1 ms while other files are synced.
    const fd = await openFile(this.#file, constants.O_RDWR | constants.O_CREAT, 0o644);
    if (this.options.syncDirectories) {
      // The new directory entry's sync, off the event loop like every other.
      const dir = await openFile(this.options.layout.conversationDir(this.conversationId), 'r');
      try {
        await this.options.syncer.sync(dir);
      } catch (error) {
        closeSync(fd);
        throw new CairnError(
          'STORE_UNAVAILABLE',
          `Could not make the new log ${this.#file} durable: ${String(error)}`,
          { cause: error, retryable: true, details: { conversationId: this.conversationId } },
        );
      } finally {
        closeSync(dir);
      }
    }
    const stats = fstatSync(fd);
    this.#state = {
      ...summarize([], stats),
      fd,
      allocated: stats.size,
      keys: new Map(),
      ids: new Map(),
    };
    this.#suspect = false;
    return this.#state;
  }

  /**
   * Appends encoded records with one `write()` where the records end (to the page cache: 20-35 µs
   * on average, measured under 100 conversations' load; kept synchronous, as a hand-off to a thread
   * costs the event loop more). A failed or short write is cut back off, so the log never keeps part
   * of a batch.
   * The bytes are journaled too (with a journal, after its `reserve()`). Under the lock. With `sync`,
   * returns the wait for the bytes to be durable: the journal's sync, off the event loop, shared
   * with every append written before it (any conversation's); it rejects with a retryable
   * `STORE_UNAVAILABLE` if the sync fails.
   */
  write(
    state: LogState,
    bytes: Buffer,
    records: readonly LogRecord[],
    sync: boolean,
  ): Promise<void> | undefined {
    if (this.options.preallocate && state.size + bytes.length > state.allocated) {
      this.#preallocate(state, state.size + bytes.length);
    }
    const offset = state.size;
    let written = 0;
    let ticket: number | undefined;
    try {
      written = writeSync(state.fd, bytes, 0, bytes.length, offset);
      if (written !== bytes.length) throw new Error(`short write: ${written} of ${bytes.length} bytes`);
      ticket = this.options.journal?.record(this.conversationId, state, offset, bytes);
    } catch (error) {
      try {
        ftruncateSync(state.fd, state.size);
        state.allocated = state.size;
      } catch {
        // Cut-back failed too: forget the state so the next append re-reads the file and
        // quarantines the torn tail instead of writing after it.
        this.close();
      }
      throw new CairnError('STORE_UNAVAILABLE', `Could not append to ${this.#file}: ${String(error)}`, {
        cause: error,
        retryable: true,
      });
    }
    index(state, records);
    const facts = {
      ino: state.ino,
      birthtimeMs: state.birthtimeMs,
      size: state.size + bytes.length,
      mtimeMs: Date.now(),
    };
    Object.assign(state, summarize(records, facts, state));
    return sync && ticket !== undefined ? this.#durable(state, ticket) : undefined;
  }

  #durable(state: LogState, ticket: number): Promise<void> {
    return (this.options.journal?.durable(ticket) ?? Promise.resolve()).catch((error: unknown) => {
      // The kernel may have dropped the pages it could not write: trust the file, not the cache.
      if (this.#state === state) this.#suspect = true;
      throw new CairnError(
        'STORE_UNAVAILABLE',
        `Could not make the append to ${this.#file} durable (fdatasync failed: ${String(error)}); it may or may not be in the log: retry it with the same idempotencyKey`,
        { cause: error, retryable: true, details: { conversationId: this.conversationId } },
      );
    });
  }

  /**
   * Pads the file with zeros past `needed` bytes (made durable by the append's sync). Another
   * process may have padded it already. Padding only saves time: if it fails (a full disk), the
   * append goes on and reports its own error.
   */
  #preallocate(state: LogState, needed: number): void {
    try {
      const current = fstatSync(state.fd).size;
      state.allocated = current;
      if (current >= needed) return;
      const target = preallocatedSize(needed);
      const padding = zeros(target - current);
      let done = 0;
      while (done < padding.length) {
        done += writeSync(state.fd, padding, done, padding.length - done, current + done);
      }
      state.allocated = target;
    } catch {
      // The append's own write reports a real problem.
    }
  }

  /** The messages of an earlier append, for an idempotent replay. Under the lock. */
  async readAppend(state: LogState, key: string): Promise<ConversationMessage[] | undefined> {
    const append = state.keys.get(key);
    if (append === undefined) return undefined;
    const { records } = decodeLog(readAt(state.fd, 0, state.size));
    return records
      .filter((record) => record.seq >= append.firstSeq && record.seq < append.firstSeq + append.count)
      .map((record) => record.msg);
  }

  /** Forgets the state and closes its descriptor (its syncs are the journal's, on descriptors of their own). */
  close(): void {
    const state = this.#state;
    if (state === undefined) return;
    this.#state = undefined;
    closeSync(state.fd);
  }

  /**
   * Writes back the records of a dead process's journal that this log lacks (a power cut lost them
   * from the page cache after the journal was synced), then syncs it. A record is written only where
   * the log holds zeros (padding, or nothing) or a cut-short copy of it; one whose bytes are there
   * already is skipped, as is one of another file (the log deleted and made again) or where other
   * bytes stand. Under the lock. Returns how many records were written.
   */
  async replay(records: readonly JournalRecord[]): Promise<number> {
    this.close();
    let fd: number;
    try {
      fd = openSync(this.#file, constants.O_RDWR);
    } catch (error) {
      // Deleted since: its records go with it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    try {
      const stats = fstatSync(fd);
      let written = 0;
      for (const record of records) {
        if (!sameFile(record, factsOf(stats))) continue;
        const present = readAt(fd, record.offset, record.bytes.length);
        if (present.equals(record.bytes) || !isZeroOrPrefixOf(present, record.bytes)) continue;
        let done = 0;
        while (done < record.bytes.length) {
          done += writeSync(fd, record.bytes, done, record.bytes.length - done, record.offset + done);
        }
        written++;
      }
      if (written > 0) await this.options.syncer.sync(fd);
      return written;
    } finally {
      closeSync(fd);
    }
  }
}

// Each byte of `present` is zero or the record's own: what a write of the record cut short, or never
// made, leaves in a log padded with zeros.
function isZeroOrPrefixOf(present: Buffer, record: Buffer): boolean {
  for (let index = 0; index < present.length; index++) {
    const byte = present[index];
    if (byte !== 0 && byte !== record[index]) return false;
  }
  return true;
}
