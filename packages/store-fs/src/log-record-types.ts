import type { ConversationMessage } from '@cairn/core';

// The shapes of a log's records and of its unusable spans, in a module of their own: log-record.ts
// (encoding, decoding) and batch-frame.ts (the batches) both use them, and log-record.ts imports
// batch-frame.ts, so they live in neither (no import cycle).

/** The batch fields of a record; none on the record of a single-message append. */
export interface BatchFrame {
  /** The batch's first seq. Records written before batches were framed carry `last` only. */
  first?: number;
  /** The batch's final seq. */
  last?: number;
  /** On the batch's final record: the CRC-32 of the checksums of the batch's other records, in order. */
  bcrc?: string;
}

/** A decoded record. `msg.seq` equals `seq`: loads return `msg` as is. */
export interface LogRecord extends BatchFrame {
  seq: number;
  /** The store's clock when the record was appended. */
  at: string;
  key?: string;
  msg: ConversationMessage;
  /** The line's checksum (8 lowercase hex digits), the last field of its line. */
  crc: string;
}

/** Why a span of bytes could not be used. */
export type CorruptReason =
  | 'torn'
  | 'checksum'
  | 'unparsable'
  | 'out-of-order'
  | 'incomplete-batch'
  | 'zero-filled';

export interface CorruptSpan {
  offset: number;
  length: number;
  reason: CorruptReason;
}
