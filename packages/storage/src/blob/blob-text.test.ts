import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlobText, encodeBlobText } from './blob-text.js';

describe('blob text (WTF-8)', () => {
  it('gives back any string exactly, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(decodeBlobText(encodeBlobText(text)) === text).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('stores well-formed text as plain UTF-8, byte for byte', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(encodeBlobText(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
      }),
      { numRuns: 100 },
    );
    // U+FFFD itself and Hangul (lead byte 0xED, like a surrogate's) are ordinary text.
    for (const text of ['\ufffd', '한국어', 'x\ud7ff']) {
      expect(encodeBlobText(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(decodeBlobText(Buffer.from(text, 'utf8'))).toBe(text);
    }
  });

  it('keeps a lone surrogate as its three-byte form', () => {
    expect([...encodeBlobText('a\ud800')]).toEqual([0x61, 0xed, 0xa0, 0x80]);
    expect([...encodeBlobText('\udfffb')]).toEqual([0xed, 0xbf, 0xbf, 0x62]);
    // A pair is one code point: four bytes, as in UTF-8.
    expect([...encodeBlobText('\ud83d\ude00')]).toEqual([0xf0, 0x9f, 0x98, 0x80]);
  });

  it('reads bytes that are not UTF-8 as Buffer does (U+FFFD), a surrogate form cut short too', () => {
    for (const bytes of [[0xff, 0x61], [0xed, 0xa0], [0x61, 0xed], [0xc3]]) {
      expect(decodeBlobText(Uint8Array.from(bytes))).toBe(Buffer.from(bytes).toString('utf8'));
    }
  });
});
