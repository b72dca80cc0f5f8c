import { crc32 } from 'node:zlib';

// A journal record: the bytes one append wrote to a log, where, and into which file.
//   magic u32 · payload length u32 · CRC-32 of the payload u32 · payload
//   payload: conversation id length u16 · conversation id (UTF-8) · log inode f64 · log birth time f64
//            · offset f64 · the bytes
// A journal is written ahead with zero bytes, so its records end at the first one that does not
// check out (zeros, or a write cut short by a crash): only the records before it were ever synced.
const MAGIC = 0x314a5243;
const HEADER_BYTES = 12;
const FIXED_PAYLOAD_BYTES = 2 + 8 * 3;

/** One append's bytes as the journal keeps them until its log is synced. */
export interface JournalRecord {
  conversationId: string;
  /** The log file's identity when written (a log deleted and made again is another file). */
  ino: number;
  birthtimeMs: number;
  /** Where in the log the bytes were written. */
  offset: number;
  bytes: Buffer;
}

/**
 * The record as written to the journal: its header and fields, then its bytes (not copied; the
 * CRC covers both).
 */
export function encodeJournalRecord(record: JournalRecord): [Buffer, Buffer] {
  const id = Buffer.from(record.conversationId, 'utf8');
  const fieldsLength = FIXED_PAYLOAD_BYTES + id.length;
  const head = Buffer.allocUnsafe(HEADER_BYTES + fieldsLength);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(fieldsLength + record.bytes.length, 4);
  let at = HEADER_BYTES;
  at = head.writeUInt16LE(id.length, at);
  at += id.copy(head, at);
  at = head.writeDoubleLE(record.ino, at);
  at = head.writeDoubleLE(record.birthtimeMs, at);
  head.writeDoubleLE(record.offset, at);
  head.writeUInt32LE(crc32(record.bytes, crc32(head.subarray(HEADER_BYTES))), 8);
  return [head, record.bytes];
}

/** The records of a journal's bytes from `start`, up to the first that does not check out. */
export function decodeJournal(buffer: Buffer, start = 0): JournalRecord[] {
  const records: JournalRecord[] = [];
  let at = start;
  while (at + HEADER_BYTES <= buffer.length && buffer.readUInt32LE(at) === MAGIC) {
    const payloadLength = buffer.readUInt32LE(at + 4);
    const payloadStart = at + HEADER_BYTES;
    const end = payloadStart + payloadLength;
    if (payloadLength < FIXED_PAYLOAD_BYTES || end > buffer.length) break;
    const payload = buffer.subarray(payloadStart, end);
    if (crc32(payload) !== buffer.readUInt32LE(at + 8)) break;
    const idLength = payload.readUInt16LE(0);
    if (FIXED_PAYLOAD_BYTES + idLength > payloadLength) break;
    const fields = 2 + idLength;
    records.push({
      conversationId: payload.toString('utf8', 2, fields),
      ino: payload.readDoubleLE(fields),
      birthtimeMs: payload.readDoubleLE(fields + 8),
      offset: payload.readDoubleLE(fields + 16),
      bytes: payload.subarray(fields + 24),
    });
    at = end;
  }
  return records;
}
