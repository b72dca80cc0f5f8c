import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderr-tail.js';

describe('StderrTail', () => {
  it('keeps everything under the limit', () => {
    const tail = new StderrTail(100);
    tail.push('one\n');
    tail.push(Buffer.from('two\n'));
    expect(tail.text()).toBe('one\ntwo\n');
  });

  it('keeps the last bytes of a long stream', () => {
    const tail = new StderrTail(10);
    tail.push('0123456789');
    tail.push('abcdef');
    expect(tail.text()).toBe('6789abcdef');
  });

  it('gives the last non-blank lines', () => {
    const tail = new StderrTail();
    tail.push('a\r\n\nb\rc\n\n  \nd\n');
    expect(tail.lastLines(3)).toEqual(['b', 'c', 'd']);
    expect(new StderrTail().lastLines(3)).toEqual([]);
  });

  it('always holds exactly the last `limit` bytes of what was pushed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.uint8Array({ maxLength: 40 })),
        (limit, chunks) => {
          const tail = new StderrTail(limit);
          for (const chunk of chunks) tail.push(Buffer.from(chunk));
          const all = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
          const kept = all.subarray(Math.max(0, all.length - limit));
          expect(tail.text()).toBe(kept.toString('utf8'));
        },
      ),
      { numRuns: 100 },
    );
  });
});
