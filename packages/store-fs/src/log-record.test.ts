import type { ConversationMessage } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsEnd } from './log-padding.js';
import { decodeCleanLog, decodeLog, encodeRecords } from './log-record.js';

const AT = '2026-01-01T00:00:00.000Z';

const content = fc.string({ unit: 'binary', maxLength: 60 });
/** Batches of 1-3 user messages with consecutive seqs from 1. */
const batches = fc
  .array(fc.array(content, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 })
  .map((contents) => {
    let seq = 0;
    return contents.map((batch) =>
      batch.map((text): ConversationMessage => {
        seq++;
        return { id: `m${seq}`, role: 'user', content: text, createdAt: AT, seq };
      }),
    );
  });

function encodeAll(all: ConversationMessage[][]): { buffer: Buffer; ends: number[] } {
  const parts = all.map(
    (batch, index) => encodeRecords(batch, AT, index % 2 === 0 ? `key-${index}` : undefined).bytes,
  );
  const ends: number[] = [];
  let total = 0;
  for (const part of parts) {
    total += part.length;
    ends.push(total);
  }
  return { buffer: Buffer.concat(parts), ends };
}

describe('encodeRecords / decodeLog', () => {
  it('round-trips every message, seq and idempotency key', () => {
    fc.assert(
      fc.property(batches, (all) => {
        const { buffer } = encodeAll(all);
        const decoded = decodeLog(buffer);
        expect(decoded.corrupt).toEqual([]);
        expect(decoded.records.map((record) => record.msg)).toEqual(all.flat());
        expect(
          decoded.records.filter((record) => record.key !== undefined).map((record) => record.key),
        ).toEqual(all.flatMap((_, index) => (index % 2 === 0 ? [`key-${index}`] : [])));
      }),
      { numRuns: 100 },
    );
  });

  it('a log cut at any byte keeps exactly the whole batches before the cut and reports the rest', () => {
    fc.assert(
      fc.property(batches, fc.nat(), (all, cutSeed) => {
        const { buffer, ends } = encodeAll(all);
        const cut = cutSeed % (buffer.length + 1);
        const decoded = decodeLog(buffer.subarray(0, cut));
        const wholeBatches = ends.filter((end) => end <= cut).length;
        expect(decoded.records.map((record) => record.msg)).toEqual(all.slice(0, wholeBatches).flat());
        const kept = ends[wholeBatches - 1] ?? 0;
        const reported = decoded.corrupt.reduce((sum, span) => sum + span.length, 0);
        expect(kept + reported).toBe(cut);
      }),
      { numRuns: 100 },
    );
  });

  it('a changed byte anywhere is caught by the checksum: only the records it touches are lost', () => {
    fc.assert(
      fc.property(batches, fc.nat(), fc.integer({ min: 1, max: 255 }), (all, positionSeed, delta) => {
        const { buffer } = encodeAll(all);
        const position = positionSeed % buffer.length;
        const damaged = Buffer.from(buffer);
        damaged[position] = ((damaged[position] ?? 0) + delta) % 256;
        const decoded = decodeLog(damaged);
        expect(decoded.corrupt.length).toBeGreaterThan(0);
        const original = decodeLog(buffer);
        const intact = original.records.filter((_, index) => {
          const start = original.offsets[index] ?? 0;
          const end = buffer.indexOf(0x0a, start);
          return position < start || position > end;
        });
        // Every surviving record is an original one, unchanged.
        for (const record of decoded.records) expect(intact).toContainEqual(record);
      }),
      { numRuns: 100 },
    );
  });

  it('the text fast path agrees with decodeLog: the same records when clean, undefined when not', () => {
    fc.assert(
      fc.property(batches, fc.nat(), fc.integer({ min: 0, max: 255 }), (all, positionSeed, delta) => {
        const { buffer } = encodeAll(all);
        const damaged = Buffer.from(buffer);
        const position = positionSeed % buffer.length;
        damaged[position] = ((damaged[position] ?? 0) + delta) % 256;
        const cut = damaged.subarray(0, damaged.length - (positionSeed % 3));
        const slow = decodeLog(cut);
        const fast = decodeCleanLog(cut.toString('utf8', 0, recordsEnd(cut)));
        if (slow.corrupt.length === 0) expect(fast).toEqual(slow.records);
        else expect(fast).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('without checksums (text this process checked or wrote), the fast path parses the same records and compares no checksum', () => {
    fc.assert(
      fc.property(batches, (all) => {
        const text = encodeAll(all).buffer.toString('utf8');
        expect(decodeCleanLog(text, { checksums: false })).toEqual(decodeCleanLog(text));
      }),
      { numRuns: 50 },
    );
    const message: ConversationMessage = { id: 'u1', role: 'user', content: 'hi', createdAt: AT, seq: 1 };
    const text = encodeRecords([message], AT).bytes.toString();
    const wrongChecksum = text.replace(/"crc":"[0-9a-f]{8}"/, '"crc":"00000000"');
    expect(decodeCleanLog(wrongChecksum)).toBeUndefined();
    expect(decodeCleanLog(wrongChecksum, { checksums: false })?.map((record) => record.msg.id)).toEqual([
      'u1',
    ]);
  });

  it('zero padding after the records is not part of the log, whatever its length', () => {
    fc.assert(
      fc.property(batches, fc.nat({ max: 20_000 }), fc.nat(), (all, padding, cutSeed) => {
        const { buffer } = encodeAll(all);
        const cut = cutSeed % (buffer.length + 1);
        const unpadded = decodeLog(buffer.subarray(0, cut));
        const padded = decodeLog(Buffer.concat([buffer.subarray(0, cut), Buffer.alloc(padding)]), 100, 0);
        expect(padded.records).toEqual(unpadded.records);
        expect(padded.end).toBe(100 + cut);
        expect(padded.corrupt).toEqual(
          unpadded.corrupt.map((span) => ({ ...span, offset: span.offset + 100 })),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('zeroed bytes (pages a crash left unwritten) lose only the batches they touch', () => {
    fc.assert(
      fc.property(batches, fc.nat(), fc.nat(), (all, startSeed, lengthSeed) => {
        const { buffer, ends } = encodeAll(all);
        const from = startSeed % buffer.length;
        const to = from + 1 + (lengthSeed % Math.min(200, buffer.length - from));
        const damaged = Buffer.from(buffer);
        damaged.fill(0, from, to);
        const decoded = decodeLog(damaged);
        // A batch whose bytes are untouched keeps every record (the last one excepted: a damaged
        // batch before it may be left last, and a last batch that is not whole is dropped whole).
        all.slice(0, -1).forEach((batch, index) => {
          const start = ends[index - 1] ?? 0;
          const end = ends[index] ?? 0;
          if (end <= from || start >= to) {
            for (const message of batch) {
              expect(decoded.records.map((record) => record.msg)).toContainEqual(message);
            }
          }
        });
        expect(decoded.corrupt.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('a record after a zero-filled hole is kept and the hole reported', () => {
    const first = encodeRecords([{ id: 'a', role: 'user', content: 'x', createdAt: AT, seq: 1 }], AT).bytes;
    const second = encodeRecords([{ id: 'b', role: 'user', content: 'y', createdAt: AT, seq: 3 }], AT).bytes;
    const decoded = decodeLog(Buffer.concat([first, Buffer.alloc(4096), second]));
    expect(decoded.records.map((record) => record.msg.id)).toEqual(['a', 'b']);
    expect(decoded.corrupt).toEqual([{ offset: first.length, length: 4096, reason: 'zero-filled' }]);
  });

  it('a record that does not continue the seq order is reported, not loaded', () => {
    const first = encodeRecords([{ id: 'a', role: 'user', content: 'x', createdAt: AT, seq: 2 }], AT).bytes;
    const second = encodeRecords([{ id: 'b', role: 'user', content: 'y', createdAt: AT, seq: 2 }], AT).bytes;
    const decoded = decodeLog(Buffer.concat([first, second]));
    expect(decoded.records.map((record) => record.msg.id)).toEqual(['a']);
    expect(decoded.corrupt).toEqual([
      { offset: first.length, length: second.length, reason: 'out-of-order' },
    ]);
  });
});
