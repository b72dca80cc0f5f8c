import { crc32 } from 'node:zlib';
import type { ConversationMessage } from '@cairn/core';
import { batchFrame, dropIncompleteBatches, incompleteBatches } from './batch-frame.js';
import { crcHex } from './crc-hex.js';
import { recordsEnd } from './log-padding.js';
import type { CorruptSpan, LogRecord } from './log-record-types.js';

// A record is one JSON line: {"seq":7,"at":"…","first":7,"last":9,"key":"…","msg":{…},"crc":"0a1b2c3d"}.
// The checksum covers every byte before `,"crc":"`, so it is checked on the raw bytes, before
// parsing. `first` and `last` (and `bcrc` on the final record) frame the records of a
// multi-message append, so a batch missing any record is recognisable (see batch-frame.ts);
// `key` is the idempotency key, on the batch's first record.
const CRC_PREFIX = ',"crc":"';
const CRC_SUFFIX_LENGTH = CRC_PREFIX.length + 8 + 2; // ,"crc":"xxxxxxxx"}
const NEWLINE = 0x0a;
const CRC_PREFIX_BYTES = Buffer.from(CRC_PREFIX);
const CRC_PLACEHOLDER = '00000000';

export interface DecodedLog {
  records: LogRecord[];
  /** Byte offset of each record's line, parallel to `records`. */
  offsets: number[];
  corrupt: CorruptSpan[];
  /** Offset just past the records (and any corrupt bytes), where the zero padding begins. */
  end: number;
}

/** Encodes messages (seqs already assigned) as the records and bytes of one append. */
export function encodeRecords(
  messages: readonly ConversationMessage[],
  at: string,
  key?: string,
): { bytes: Buffer; records: LogRecord[] } {
  const lines: Buffer[] = [];
  const crcs: string[] = [];
  const records = messages.map((msg, index): LogRecord => {
    const seq = msg.seq ?? 0;
    const fields: Omit<LogRecord, 'crc'> = {
      seq,
      at,
      ...batchFrame(messages, index, crcs),
      ...(index === 0 && key !== undefined ? { key } : {}),
      msg,
    };
    // JSON.stringify keeps insertion order, so the line is seq, at, first, last, bcrc, key, msg:
    // then the crc, in place of the closing brace. The line is encoded once, with a placeholder
    // checksum that is then overwritten in place (no copy of the body to hash or to join).
    const json = JSON.stringify(fields);
    const line = Buffer.from(`${json.slice(0, -1)}${CRC_PREFIX}${CRC_PLACEHOLDER}"}\n`);
    const bodyEnd = line.length - CRC_SUFFIX_LENGTH - 1;
    const crc = crcHex(crc32(line.subarray(0, bodyEnd)));
    line.write(crc, bodyEnd + CRC_PREFIX.length, 'latin1');
    crcs.push(crc);
    lines.push(line);
    return { ...fields, crc };
  });
  return { bytes: lines.length === 1 && lines[0] !== undefined ? lines[0] : Buffer.concat(lines), records };
}

function checksumMatches(buffer: Buffer, start: number, end: number): boolean {
  const bodyEnd = end - CRC_SUFFIX_LENGTH;
  if (bodyEnd <= start) return false;
  if (
    buffer.compare(
      CRC_PREFIX_BYTES,
      0,
      CRC_PREFIX_BYTES.length,
      bodyEnd,
      bodyEnd + CRC_PREFIX_BYTES.length,
    ) !== 0
  ) {
    return false;
  }
  const stored = buffer.toString('latin1', bodyEnd + CRC_PREFIX.length, end - 2);
  return (
    buffer[end - 2] === 0x22 &&
    buffer[end - 1] === 0x7d &&
    crcHex(crc32(buffer.subarray(start, bodyEnd))) === stored
  );
}

/** A line (checksum already verified) parsed into a record, or undefined if it is not one. */
function parseLine(line: string): LogRecord | undefined {
  try {
    const record = JSON.parse(line) as Partial<LogRecord>;
    const { seq, at, msg } = record;
    if (!Number.isSafeInteger(seq) || typeof at !== 'string' || typeof msg !== 'object' || msg === null)
      return undefined;
    return msg.seq === seq ? (record as LogRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits and verifies a log (its zero padding is not part of it). Every line's checksum is checked;
 * a line that is torn (no newline at the end of the buffer), fails its checksum, does not parse, or
 * does not continue the seq order is reported as corrupt and skipped; the records of a batch the
 * buffer does not hold whole are too, wherever the batch lies. Zero bytes are never part of a
 * record (a page a crash left unwritten): they and what precedes them on their line are reported,
 * and decoding goes on after them, where a whole record may follow. `baseSeq` is the last seq
 * before this buffer (when decoding a tail).
 */
export function decodeLog(padded: Buffer, baseOffset = 0, baseSeq = 0): DecodedLog {
  const buffer = padded.subarray(0, recordsEnd(padded));
  const records: LogRecord[] = [];
  const offsets: number[] = [];
  const corrupt: CorruptSpan[] = [];
  let lastSeq = baseSeq;
  let start = 0;
  // Found once and moved forward only: a clean log has no zero byte, and is searched once.
  let zero = buffer.indexOf(0);
  while (start < buffer.length) {
    if (zero !== -1 && zero < start) zero = buffer.indexOf(0, start);
    const newline = buffer.indexOf(NEWLINE, start);
    const lineEnd = newline === -1 ? buffer.length : newline;
    if (zero !== -1 && zero < lineEnd) {
      let after = zero;
      while (buffer[after] === 0) after++;
      corrupt.push({ offset: baseOffset + start, length: after - start, reason: 'zero-filled' });
      start = after;
      continue;
    }
    if (newline === -1) {
      corrupt.push({ offset: baseOffset + start, length: buffer.length - start, reason: 'torn' });
      break;
    }
    const reason = !checksumMatches(buffer, start, newline) ? 'checksum' : undefined;
    const record = reason === undefined ? parseLine(buffer.toString('utf8', start, newline)) : undefined;
    if (record === undefined || record.seq <= lastSeq) {
      const why = reason ?? (record === undefined ? 'unparsable' : 'out-of-order');
      corrupt.push({ offset: baseOffset + start, length: newline + 1 - start, reason: why });
    } else {
      records.push(record);
      offsets.push(baseOffset + start);
      lastSeq = record.seq;
    }
    start = newline + 1;
  }
  const end = baseOffset + buffer.length;
  dropIncompleteBatches(
    { records, offsets, corrupt },
    (offset) => baseOffset + buffer.indexOf(NEWLINE, offset - baseOffset) + 1,
  );
  return { records, offsets, corrupt, end };
}

/**
 * The fast path of a load: a log's records read as text (padding cut off), every line's checksum
 * checked on the string (the CRC of its UTF-8 bytes) and parsed. Returns undefined on the first problem of any kind; the
 * caller then decodes the bytes with `decodeLog`, which locates and reports each corrupt span.
 * `checksums: false` skips the checksums, for text already checked (or written) by this process.
 */
export function decodeCleanLog(
  text: string,
  { checksums = true }: { checksums?: boolean } = {},
): LogRecord[] | undefined {
  if (text.length > 0 && text.charCodeAt(text.length - 1) !== NEWLINE) return undefined;
  const lines = text.split('\n');
  lines.pop();
  const records: LogRecord[] = new Array(lines.length);
  let lastSeq = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const bodyEnd = line.length - CRC_SUFFIX_LENGTH;
    if (bodyEnd <= 0 || !line.startsWith(CRC_PREFIX, bodyEnd) || !line.endsWith('"}')) return undefined;
    if (checksums && crcHex(crc32(line.slice(0, bodyEnd))) !== line.slice(bodyEnd + CRC_PREFIX.length, -2))
      return undefined;
    const record = parseLine(line);
    if (record === undefined || !(record.seq > lastSeq)) return undefined;
    lastSeq = record.seq;
    records[index] = record;
  }
  return incompleteBatches(records).length === 0 ? records : undefined;
}
