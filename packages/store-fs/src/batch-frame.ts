import { crc32 } from 'node:zlib';
import type { ConversationMessage } from '@cairn/core';
import { crcHex } from './crc-hex.js';
import type { BatchFrame, CorruptSpan, LogRecord } from './log-record-types.js';

// A batch (the messages of one multi-message append) is one write(), but a crash can leave any of
// its pages unwritten: the kernel writes pages back in any order, so the batch's last record may
// reach the disk while a middle one does not. Each record's own checksum cannot see a record that
// is missing, so every record of a batch names the batch's seq range, and its final record carries
// a checksum over the batch: load takes the batch only when every record is there, in order, and
// the checksum matches. Single-message appends need no frame: one record is whole or fails its
// own checksum.

/** Records `start` (inclusive) to `end` (exclusive) of a decoded log. */
export interface RecordRange {
  start: number;
  end: number;
}

/**
 * The CRC-32 over a batch's records but its final one, from their own checksums (each covering
 * its whole line): a few bytes per record to hash, so a batch of any size costs almost nothing more.
 */
function batchChecksum(crcs: readonly string[]): string {
  return crcHex(crc32(crcs.join('')));
}

/**
 * The frame of the record at `index` of an append of `messages` (seqs assigned), given the
 * checksums of the records before it.
 */
export function batchFrame(
  messages: readonly ConversationMessage[],
  index: number,
  earlierCrcs: readonly string[],
): BatchFrame {
  if (messages.length < 2) return {};
  const first = messages[0]?.seq ?? 0;
  const last = messages.at(-1)?.seq ?? 0;
  return index === messages.length - 1 ? { first, last, bcrc: batchChecksum(earlierCrcs) } : { first, last };
}

function isWhole(records: readonly LogRecord[], { start, end }: RecordRange): boolean {
  const head = records[start];
  const final = records[end - 1];
  if (head === undefined || final === undefined || head.first === undefined || head.last === undefined) {
    return false;
  }
  // Seqs only increase along a decoded log, so the right count from `first` to `last` is every seq.
  if (head.seq !== head.first || final.seq !== head.last || end - start !== head.last - head.first + 1) {
    return false;
  }
  const crcs = records.slice(start, end - 1).map((record) => record.crc);
  return final.bcrc === batchChecksum(crcs);
}

/**
 * The records of `records` (a decoded log, in order) that belong to batches the log does not hold
 * whole. A framed batch is judged wherever it lies; of the records written before framing, only a
 * final batch cut short is recognisable (its last record is not the batch's last), as before.
 */
export function incompleteBatches(records: readonly LogRecord[]): RecordRange[] {
  const incomplete: RecordRange[] = [];
  for (let start = 0; start < records.length; ) {
    const head = records[start] as LogRecord;
    let end = start + 1;
    if (head.first !== undefined) {
      while (end < records.length && records[end]?.first === head.first && records[end]?.last === head.last)
        end++;
      if (!isWhole(records, { start, end })) incomplete.push({ start, end });
    }
    start = end;
  }
  const final = records.at(-1);
  if (
    final !== undefined &&
    final.first === undefined &&
    final.last !== undefined &&
    final.last !== final.seq
  ) {
    let start = records.length - 1;
    while (start > 0 && records[start - 1]?.first === undefined && records[start - 1]?.last === final.last)
      start--;
    incomplete.push({ start, end: records.length });
  }
  return incomplete;
}

/**
 * Moves the records of batches not held whole out of a decoded log: each such batch becomes one
 * `incomplete-batch` span, from its first record present to the end of its last one (any corrupt
 * bytes between them included). `lineEnd` gives where the line at an offset ends. The spans stay in
 * offset order.
 */
export function dropIncompleteBatches(
  decoded: { records: LogRecord[]; offsets: number[]; corrupt: CorruptSpan[] },
  lineEnd: (offset: number) => number,
): void {
  const { records, offsets, corrupt } = decoded;
  const incomplete = incompleteBatches(records);
  if (incomplete.length === 0) return;
  for (const { start, end } of incomplete.reverse()) {
    const offset = offsets[start] ?? 0;
    const stop = lineEnd(offsets[end - 1] ?? offset);
    records.splice(start, end - start);
    offsets.splice(start, end - start);
    const outside = corrupt.filter((span) => span.offset < offset || span.offset >= stop);
    corrupt.splice(0, corrupt.length, ...outside, {
      offset,
      length: stop - offset,
      reason: 'incomplete-batch',
    });
  }
  corrupt.sort((a, b) => a.offset - b.offset);
}
