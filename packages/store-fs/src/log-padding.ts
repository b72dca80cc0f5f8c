import { readSync } from 'node:fs';

// With durability 'append' a log is written ahead of its records with zero bytes, so each durable
// append overwrites space the file already has: its O_DSYNC write flushes data only, with no
// journal commit for a new file size (PostgreSQL's WAL segments do the same). A log is therefore
// its records followed by zero or more zero bytes. Record text never holds a zero byte (JSON
// escapes U+0000 and UTF-8 uses 0x00 for nothing else), so the padding is unambiguous.

const MIN_PADDING = 64 * 1024;
const MAX_PADDING = 1024 * 1024;
const BLOCK = 4096;
const ZERO_BLOCK = Buffer.alloc(BLOCK);

/** Where the records of `buffer` end: its length without the trailing zero bytes. */
export function recordsEnd(buffer: Uint8Array, start = 0): number {
  let end = buffer.length;
  // Whole zero blocks are skipped with a native compare; the last few bytes one by one.
  while (end - start >= BLOCK && ZERO_BLOCK.equals(buffer.subarray(end - BLOCK, end))) end -= BLOCK;
  while (end > start && buffer[end - 1] === 0) end--;
  return end;
}

/**
 * The file size to preallocate so that `needed` bytes fit: room for as much again as the log
 * holds (so a growing log is padded a few times, not every few appends), between 64 KiB and
 * 1 MiB of padding, in whole 4 KiB blocks.
 */
export function preallocatedSize(needed: number): number {
  const padding = Math.min(MAX_PADDING, Math.max(MIN_PADDING, needed));
  return Math.ceil((needed + padding) / BLOCK) * BLOCK;
}

/** A zero buffer of `length` bytes, from a shared block when it fits. */
export function zeros(length: number): Buffer {
  return length <= BLOCK ? ZERO_BLOCK.subarray(0, length) : Buffer.alloc(length);
}

/** How a log compares with a summary of it: as summarised, with records added, or otherwise. */
export type RecordsEndCheck = 'same' | 'grown' | 'changed';

/**
 * Whether the records of the open file `fd` (`fileSize` bytes) still end at `end` with the record
 * whose checksum is `lastCrc` (none: an empty log). Within one file (same inode) records are only
 * added at the end of the records, so when that line end is still there, a zero byte after it (or
 * the end of the file) means nothing was added. Any other bytes there mean the summary no longer
 * describes the file: a record cut back after a failed sync, a recreated file, a lost page.
 */
export function checkRecordsEnd(
  fd: number,
  end: number,
  lastCrc: string | undefined,
  fileSize: number,
): RecordsEndCheck {
  // How the last record's line ends: its checksum, the closing brace, the newline.
  const lineEnd = lastCrc === undefined ? '' : `${lastCrc}"}\n`;
  if (fileSize < end || end < lineEnd.length) return 'changed';
  const bytes = Buffer.alloc(lineEnd.length + 1);
  const read = readSync(fd, bytes, 0, bytes.length, end - lineEnd.length);
  if (read < lineEnd.length || bytes.toString('latin1', 0, lineEnd.length) !== lineEnd) return 'changed';
  return read === lineEnd.length || bytes[lineEnd.length] === 0 ? 'same' : 'grown';
}
