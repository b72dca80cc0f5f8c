import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { preallocatedSize, recordsEnd, recordsStillEndAt } from './log-padding.js';

describe('recordsEnd', () => {
  it('is the length without the trailing zero bytes, however long the padding', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.nat({ max: 20_000 }),
        fc.nat({ max: 310 }),
        (body, padding, startSeed) => {
          const buffer = Buffer.concat([body, Buffer.alloc(padding)]);
          let expected = body.length;
          while (expected > 0 && body[expected - 1] === 0) expected--;
          const start = Math.min(startSeed, expected);
          expect(recordsEnd(buffer, start)).toBe(expected);
        },
      ),
    );
  });
});

describe('preallocatedSize', () => {
  it('leaves 64 KiB to 1 MiB of room, in whole 4 KiB blocks', () => {
    fc.assert(
      fc.property(fc.nat({ max: 100_000_000 }), (needed) => {
        const size = preallocatedSize(needed);
        expect(size % 4096).toBe(0);
        expect(size - needed).toBeGreaterThanOrEqual(64 * 1024);
        expect(size - needed).toBeLessThan(1024 * 1024 + 4096);
      }),
    );
  });
});

describe('recordsStillEndAt', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-padding-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function check(content: Buffer, end: number): boolean {
    const file = join(dir, 'log');
    writeFileSync(file, content);
    const fd = openSync(file, 'r');
    try {
      return recordsStillEndAt(fd, end, content.length);
    } finally {
      closeSync(fd);
    }
  }

  it('holds at the end of the file and before padding, not before more records or past a cut', () => {
    const records = Buffer.from('{"seq":1}\n');
    expect(check(records, records.length)).toBe(true);
    expect(check(Buffer.concat([records, Buffer.alloc(64)]), records.length)).toBe(true);
    expect(check(Buffer.concat([records, Buffer.from('{"seq":2}\n')]), records.length)).toBe(false);
    expect(check(records, records.length + 5)).toBe(false);
  });
});
