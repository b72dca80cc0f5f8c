import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TRANSCRIPT_BYTES, TranscriptBuffer, transcriptTruncatedLine } from './transcript-buffer.js';

describe('TranscriptBuffer', () => {
  it('keeps everything up to the limit, byte for byte', () => {
    const buffer = new TranscriptBuffer(10);
    buffer.push(Buffer.from('{"a":1}\n'));
    buffer.push(Buffer.from('xy'));
    expect(buffer.contents().toString()).toBe('{"a":1}\nxy');
  });

  it('past the limit keeps the first bytes and ends with a marker line counting the rest', () => {
    const buffer = new TranscriptBuffer(10);
    buffer.push(Buffer.from('{"a":1}\n{"b"'));
    buffer.push(Buffer.from(':2}\n'));
    const lines = buffer.contents().toString().split('\n');
    expect(lines.slice(0, 2)).toEqual(['{"a":1}', '{"']);
    expect(JSON.parse(lines[2] as string)).toEqual({
      type: 'cairn_transcript_truncated',
      keptBytes: 10,
      droppedBytes: 6,
      message: "Cairn kept only the first 10 bytes of the agent's stdout; 6 more bytes were not kept",
    });
    expect(lines[3]).toBe('');
  });

  it('is the first `limit` bytes, then the marker (after a line break when cut mid-line)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.uint8Array({ maxLength: 40 })),
        (limit, chunks) => {
          const buffer = new TranscriptBuffer(limit);
          for (const chunk of chunks) buffer.push(Buffer.from(chunk));
          const all = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
          const kept = all.subarray(0, limit);
          const dropped = all.length - kept.length;
          const expected =
            dropped === 0
              ? kept
              : Buffer.concat([
                  kept,
                  Buffer.from(kept.at(-1) === 0x0a ? '' : '\n'),
                  Buffer.from(transcriptTruncatedLine(kept.length, dropped)),
                ]);
          expect(buffer.contents()).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('defaults to 64 MiB', () => {
    expect(MAX_TRANSCRIPT_BYTES).toBe(64 * 1024 * 1024);
  });
});
