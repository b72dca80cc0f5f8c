import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRecordsEnd, preallocatedSize, recordsEnd } from './log-padding.js';

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
      { numRuns: 100 },
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
      { numRuns: 100 },
    );
  });
});

describe('checkRecordsEnd', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-padding-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const line = (crc: string) => `{"seq":1,"crc":"${crc}"}\n`;
  const first = Buffer.from(line('0a1b2c3d'));

  function check(content: Buffer, end: number, lastCrc: string | undefined) {
    const file = join(dir, 'log');
    writeFileSync(file, content);
    const fd = openSync(file, 'r');
    try {
      return checkRecordsEnd(fd, end, lastCrc, content.length);
    } finally {
      closeSync(fd);
    }
  }

  it('same at the end of the file or before padding, grown before more records', () => {
    expect(check(first, first.length, '0a1b2c3d')).toBe('same');
    expect(check(Buffer.concat([first, Buffer.alloc(64)]), first.length, '0a1b2c3d')).toBe('same');
    expect(check(Buffer.concat([first, Buffer.from(line('ffffffff'))]), first.length, '0a1b2c3d')).toBe(
      'grown',
    );
    expect(check(Buffer.alloc(64), 0, undefined)).toBe('same');
    expect(check(first, 0, undefined)).toBe('grown');
  });

  it('changed when the last record is not the one summarised, or the file is shorter', () => {
    // A record cut back and replaced by another of the same length, then padding.
    const replaced = Buffer.concat([Buffer.from(line('99999999')), Buffer.alloc(64)]);
    expect(check(replaced, first.length, '0a1b2c3d')).toBe('changed');
    expect(check(first, first.length + 5, '0a1b2c3d')).toBe('changed');
    expect(check(first, 4, '0a1b2c3d')).toBe('changed');
  });
});
