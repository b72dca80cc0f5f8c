import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, splitLines } from './line-splitter.js';

const encoder = new TextEncoder();

/** Feeds `bytes` cut at `cuts` (sorted byte offsets) and returns every line. */
function splitAt(bytes: Uint8Array, cuts: readonly number[]): string[] {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    lines.push(...splitter.push(bytes.subarray(start, cut)));
    start = cut;
  }
  return [...lines, ...splitter.end()];
}

async function* chunksOf(...chunks: Array<string | Uint8Array>) {
  yield* chunks;
}

describe('LineSplitter', () => {
  it('splits on LF, CRLF and CR, keeping blank lines', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('a\nb\r\nc\rd\n\n')).toEqual(['a', 'b', 'c', 'd', '']);
    expect(splitter.end()).toEqual([]);
  });

  it('emits the last line without a line break at the end', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(splitter.push(':2}')).toEqual([]);
    expect(splitter.end()).toEqual(['{"b":2}']);
  });

  it('treats CR then LF across chunks as one line break', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('one\r')).toEqual(['one']);
    expect(splitter.push('\ntwo\r')).toEqual(['two']);
    expect(splitter.push('\r')).toEqual(['']);
    expect(splitter.end()).toEqual([]);
  });

  it('drops one leading BOM, in bytes or text', () => {
    expect(splitAt(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a]), [1, 2])).toEqual(['a']);
    const splitter = new LineSplitter();
    expect([...splitter.push('\uFEFF\uFEFFx\n'), ...splitter.end()]).toEqual(['\uFEFFx']);
  });

  it('gives the same lines however the bytes are chunked, even inside UTF-8 characters', () => {
    const line = fc.string({ unit: 'grapheme' }).map((text) => text.replace(/[\r\n\uFEFF]/g, ' '));
    const terminator = fc.constantFrom('\n', '\r\n', '\r');
    const document = fc.array(fc.tuple(line, terminator), { maxLength: 12 });
    fc.assert(
      fc.property(document, fc.array(fc.nat(), { maxLength: 10 }), (parts, rawCuts) => {
        const text = parts.map(([content, end]) => content + end).join('');
        const bytes = encoder.encode(text);
        const cuts = [...new Set(rawCuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        // The reference: the whole text split at once ("\r" then "\n" is one CRLF break).
        const expected = text === '' ? [] : text.split(/\r\n|\r|\n/).slice(0, -1);
        expect(splitAt(bytes, cuts)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('gives the lines of the whole stream decoded at once, for any bytes cut anywhere (invalid UTF-8 too)', () => {
    // Bytes rich in line breaks, a BOM's and multi-byte characters' parts, and invalid sequences.
    const byte = fc.oneof(
      fc.constantFrom(0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x80, 0xc3, 0xff, 0x61),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), (raw, rawCuts) => {
        const bytes = new Uint8Array(raw);
        const cuts = [...new Set(rawCuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
        const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
        const parts = text.split(/\r\n|\r|\n/);
        const expected = parts.at(-1) === '' ? parts.slice(0, -1) : parts;
        expect(splitAt(bytes, cuts)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a line whole when string and byte chunks alternate', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('a')).toEqual([]);
    expect(splitter.push(encoder.encode('é\nb'))).toEqual(['aé']);
    expect(splitter.push(new Uint8Array([0xe2, 0x82]))).toEqual([]);
    expect(splitter.push('c\r')).toEqual(['b\ufffdc']);
    expect(splitter.push(encoder.encode('\nd'))).toEqual([]);
    expect(splitter.end()).toEqual(['d']);
  });

  it('does not keep a reference to a chunk whose buffer the caller reuses', () => {
    const splitter = new LineSplitter();
    const buffer = encoder.encode('one\ntw');
    expect(splitter.push(buffer)).toEqual(['one']);
    buffer.fill(0x78);
    expect(splitter.push(encoder.encode('o\n'))).toEqual(['two']);
  });

  it("splits a Uint8Array subclass's chunks (Node's Buffer) as it splits plain ones, offsets included", () => {
    class Bytes extends Uint8Array {}
    const text = 'one\r\ntwo é\nthree';
    const bytes = encoder.encode(`xx${text}yy`);
    for (const make of [
      (start: number, end: number) => new Bytes(bytes.buffer, start, end - start),
      (start: number, end: number) => Buffer.from(bytes.buffer, start, end - start),
    ]) {
      const splitter = new LineSplitter();
      const lines = [
        ...splitter.push(make(2, 9)),
        ...splitter.push(make(9, bytes.length - 2)),
        ...splitter.end(),
      ];
      expect(lines).toEqual(['one', 'two é', 'three']);
    }
  });

  it('splitLines reads an async stream of chunks', async () => {
    const lines: string[] = [];
    for await (const line of splitLines(chunksOf(encoder.encode('a\n{"é'), encoder.encode('":1}'))))
      lines.push(line);
    expect(lines).toEqual(['a', '{"é":1}']);
  });
});
