import type { ConversationMessage } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCleanLog, decodeLog, encodeRecords } from './log-record.js';

const AT = '2026-01-01T00:00:00.000Z';

function message(seq: number, content = `message ${seq}`): ConversationMessage {
  return { id: `m${seq}`, role: 'user', content, createdAt: AT, seq };
}

/** Batches of 1-4 messages with consecutive seqs from 1, each encoded as one append. */
const batches = fc
  .array(fc.array(fc.string({ maxLength: 300 }), { minLength: 1, maxLength: 4 }), {
    minLength: 1,
    maxLength: 6,
  })
  .map((contents) => {
    let seq = 0;
    return contents.map((batch) => batch.map((text) => message(++seq, text)));
  });

function encodeAll(all: ConversationMessage[][]): Buffer {
  return Buffer.concat(all.map((batch) => encodeRecords(batch, AT).bytes));
}

/** Every batch of `all` is in `loaded` whole, at its seqs, or not at all; nothing else is. */
function expectAllOrNothing(all: ConversationMessage[][], loaded: readonly ConversationMessage[]) {
  const byId = new Map(loaded.map((msg) => [msg.id, msg]));
  for (const batch of all) {
    const present = batch.filter((msg) => byId.has(msg.id));
    expect(present.length === 0 || present.length === batch.length).toBe(true);
    for (const msg of present) expect(byId.get(msg.id)).toEqual(msg);
  }
  expect(loaded.length).toBe(all.flat().filter((msg) => byId.has(msg.id)).length);
}

describe('batch frame', () => {
  it('every record of a batch names its seq range; the final one carries the batch checksum', () => {
    const lines = encodeRecords([message(4), message(5), message(6)], AT, 'k')
      .bytes.toString()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map(({ first, last }) => [first, last])).toEqual([
      [4, 6],
      [4, 6],
      [4, 6],
    ]);
    expect(lines.map((line) => line.bcrc)).toEqual([
      undefined,
      undefined,
      expect.stringMatching(/^[0-9a-f]{8}$/),
    ]);
    expect(lines[0].key).toBe('k');
    const single = JSON.parse(encodeRecords([message(7)], AT).bytes.toString());
    expect(Object.keys(single)).toEqual(['seq', 'at', 'msg', 'crc']);
  });

  it('a batch missing its first, a middle or its last record is dropped whole, wherever it lies', () => {
    const before = encodeRecords([message(1)], AT).bytes;
    const batch = encodeRecords([message(2), message(3), message(4)], AT).bytes;
    const after = encodeRecords([message(5), message(6)], AT).bytes;
    const lines = batch.toString().split(/(?<=\n)/);
    for (let missing = 0; missing < lines.length; missing++) {
      const damaged = Buffer.from(lines.filter((_, index) => index !== missing).join(''));
      const log = Buffer.concat([before, damaged, after]);
      const decoded = decodeLog(log);
      expect(decoded.records.map((record) => record.seq)).toEqual([1, 5, 6]);
      expect(decoded.corrupt).toEqual([
        { offset: before.length, length: damaged.length, reason: 'incomplete-batch' },
      ]);
      expect(decodeCleanLog(log.toString())).toBeUndefined();
    }
  });

  it('a record of another batch with the same seq range fails the batch checksum', () => {
    const original = encodeRecords([message(1), message(2), message(3)], AT)
      .bytes.toString()
      .split(/(?<=\n)/);
    const other = encodeRecords([message(1), message(2, 'rewritten'), message(3)], AT)
      .bytes.toString()
      .split(/(?<=\n)/);
    const mixed = Buffer.from([original[0], other[1], original[2]].join(''));
    expect(decodeLog(mixed).records).toEqual([]);
    expect(decodeLog(mixed).corrupt).toEqual([
      { offset: 0, length: mixed.length, reason: 'incomplete-batch' },
    ]);
  });

  it('zeroed or missing bytes anywhere leave every batch whole or absent, never part of it', () => {
    fc.assert(
      fc.property(batches, fc.nat(), fc.nat(), fc.boolean(), (all, startSeed, lengthSeed, remove) => {
        const buffer = encodeAll(all);
        const from = startSeed % buffer.length;
        const to = from + 1 + (lengthSeed % Math.min(5000, buffer.length - from));
        const damaged = remove
          ? Buffer.concat([buffer.subarray(0, from), buffer.subarray(to)])
          : Buffer.from(buffer).fill(0, from, to);
        const decoded = decodeLog(damaged);
        expectAllOrNothing(
          all,
          decoded.records.map((record) => record.msg),
        );
        // Every byte is either a kept record's or reported.
        const kept = decoded.offsets.reduce(
          (sum, offset) => sum + damaged.indexOf(0x0a, offset) + 1 - offset,
          0,
        );
        const reported = decoded.corrupt.reduce((sum, span) => sum + span.length, 0);
        expect(kept + reported).toBe(decoded.end);
      }),
      { numRuns: 1000 },
    );
  });

  it('a log written before batches were framed loads as before', () => {
    // Written by the previous release: batch records carry `last` only.
    const legacy = [
      '{"seq":1,"at":"2026-01-01T00:00:00.000Z","msg":{"id":"u1","role":"user","content":"hello","createdAt":"2026-01-01T00:00:00.000Z","seq":1},"crc":"f3003c63"}',
      '{"seq":2,"at":"2026-01-01T00:00:00.000Z","last":4,"key":"k1","msg":{"id":"b2","role":"user","content":"two","createdAt":"2026-01-01T00:00:00.000Z","seq":2},"crc":"838939d1"}',
      '{"seq":3,"at":"2026-01-01T00:00:00.000Z","last":4,"msg":{"id":"b3","role":"user","content":"three","createdAt":"2026-01-01T00:00:00.000Z","seq":3},"crc":"2bfcc089"}',
      '{"seq":4,"at":"2026-01-01T00:00:00.000Z","last":4,"msg":{"id":"b4","role":"user","content":"four","createdAt":"2026-01-01T00:00:00.000Z","seq":4},"crc":"ebe7405f"}',
    ].map((line) => `${line}\n`);
    const whole = Buffer.from(legacy.join(''));
    expect(decodeLog(whole).corrupt).toEqual([]);
    expect(decodeCleanLog(whole.toString())?.map((record) => record.msg.id)).toEqual([
      'u1',
      'b2',
      'b3',
      'b4',
    ]);
    // A final batch cut short is still recognised, and a new framed batch may follow old records.
    const cut = decodeLog(Buffer.from(legacy.slice(0, 3).join('')));
    expect(cut.records.map((record) => record.seq)).toEqual([1]);
    expect(cut.corrupt).toMatchObject([{ reason: 'incomplete-batch' }]);
    const continued = Buffer.concat([whole, encodeRecords([message(5), message(6)], AT).bytes]);
    expect(decodeCleanLog(continued.toString())?.map((record) => record.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
