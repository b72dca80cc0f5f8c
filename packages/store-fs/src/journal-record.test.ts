import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJournal, encodeJournalRecord, type JournalRecord } from './journal-record.js';

const recordArbitrary = fc.record({
  conversationId: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
  ino: fc.nat(),
  birthtimeMs: fc.double({ min: 0, max: 2e12, noNaN: true }),
  offset: fc.nat(),
  bytes: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
});

const encode = (records: JournalRecord[]) => Buffer.concat(records.flatMap(encodeJournalRecord));
// A journal file: its records, then the zeros it was written ahead with.
const journal = (records: JournalRecord[], padding = 64) =>
  Buffer.concat([encode(records), Buffer.alloc(padding)]);

describe('journal records', () => {
  it('decode to what was encoded, up to the padding', () => {
    fc.assert(
      fc.property(fc.array(recordArbitrary, { maxLength: 8 }), (records) => {
        expect(decodeJournal(journal(records))).toEqual(records);
      }),
    );
  });

  it('a journal cut anywhere (a write cut short) decodes to the records wholly before the cut', () => {
    fc.assert(
      fc.property(fc.array(recordArbitrary, { minLength: 1, maxLength: 6 }), fc.nat(), (records, at) => {
        const bytes = journal(records, 0);
        const cut = at % (bytes.length + 1);
        const decoded = decodeJournal(Buffer.concat([bytes.subarray(0, cut), Buffer.alloc(32)]));
        let whole = 0;
        let end = 0;
        for (const record of records) {
          end += encode([record]).length;
          if (end <= cut) whole++;
        }
        expect(decoded).toEqual(records.slice(0, whole));
      }),
    );
  });

  it('stops at a record whose bytes changed: nothing after it is trusted', () => {
    fc.assert(
      fc.property(fc.array(recordArbitrary, { minLength: 2, maxLength: 6 }), fc.nat(), (records, at) => {
        const first = encode(records.slice(0, 1)).length;
        const bytes = journal(records);
        // Flip one bit in the second record.
        const second = encode(records.slice(1, 2)).length;
        const index = first + (at % second);
        bytes[index] = (bytes[index] ?? 0) ^ 0x01;
        expect(decodeJournal(bytes)).toEqual(records.slice(0, 1));
      }),
    );
  });
});
