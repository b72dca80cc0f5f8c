import { bytesToBase64, type FilePart, type ImagePart, type MediaPart } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_MAX_IMAGE_TOKENS,
  anthropicImageTokens,
  estimateMediaPartTokens,
  GEMINI_IMAGE_TOKENS,
  geminiImageTokens,
  MEDIA_TOKEN_RULES,
  type MediaTokenRules,
  OPENAI_BASE_IMAGE_TOKENS,
  OPENAI_TILE_TOKENS,
  openAIImageTokens,
  PDF_BYTES_PER_PAGE,
  PDF_PAGE_TOKENS,
  pdfPageCount,
  UNKNOWN_IMAGE_SIDE,
} from './media-part-tokens.js';

const sideArb = fc.integer({ min: 1, max: 12_000 });
const ruleArb = fc.constantFrom(...MEDIA_TOKEN_RULES);
const IMAGE_TOKENS = {
  anthropic: anthropicImageTokens,
  openai: openAIImageTokens,
  gemini: geminiImageTokens,
};
const countChars = (text: string) => text.length;
const SHA = 'a'.repeat(64);

const image = (fields: Partial<ImagePart> = {}): ImagePart => ({
  type: 'image',
  mediaType: 'image/png',
  source: { type: 'url', url: 'https://example.com/a.png' },
  ...fields,
});
const file = (mediaType: string, source: FilePart['source']): FilePart => ({
  type: 'file',
  mediaType,
  source,
});
const latin1Base64 = (text: string) => bytesToBase64(Uint8Array.from(text, (char) => char.charCodeAt(0)));

describe('image token rules', () => {
  it("match the providers' documented examples", () => {
    // Anthropic: 1092 × 1092 (the largest square sent unscaled) ≈ 1,590; 200 × 200 ≈ 54.
    expect(anthropicImageTokens(1092, 1092)).toBe(1590);
    expect(anthropicImageTokens(200, 200)).toBe(54);
    expect(anthropicImageTokens(4000, 3000)).toBe(ANTHROPIC_MAX_IMAGE_TOKENS);
    // OpenAI: 1024 × 1024 → 768 × 768, 4 tiles → 765; 2048 × 4096 → 768 × 1536, 6 tiles → 1,105.
    expect(openAIImageTokens(1024, 1024)).toBe(765);
    expect(openAIImageTokens(2048, 4096)).toBe(1105);
    expect(openAIImageTokens(4096, 8192, 'low')).toBe(OPENAI_BASE_IMAGE_TOKENS);
    expect(openAIImageTokens(100, 100)).toBe(OPENAI_BASE_IMAGE_TOKENS + OPENAI_TILE_TOKENS);
    // Gemini: both sides ≤ 384 → 258; 1000 × 1000 → 2 × 2 tiles of 768.
    expect(geminiImageTokens(384, 384)).toBe(GEMINI_IMAGE_TOKENS);
    expect(geminiImageTokens(1000, 1000)).toBe(4 * GEMINI_IMAGE_TOKENS);
  });

  // Not in each side alone: Anthropic scales a 700 × 1600 image to 686 × 1568, cheaper than 700 × 1568.
  it('are positive integers that never shrink as an image is enlarged', () => {
    fc.assert(
      fc.property(ruleArb, sideArb, sideArb, fc.integer({ min: 1, max: 8 }), (rule, w, h, k) => {
        const tokens = IMAGE_TOKENS[rule];
        const small = tokens(w, h);
        expect(Number.isInteger(small) && small > 0).toBe(true);
        expect(tokens(w * k, h * k)).toBeGreaterThanOrEqual(small);
      }),
    );
  });

  it('Anthropic: about width × height / 750 up to its size cap, never over 1,600', () => {
    fc.assert(
      fc.property(sideArb, sideArb, (w, h) => {
        const tokens = anthropicImageTokens(w, h);
        expect(tokens).toBeLessThanOrEqual(ANTHROPIC_MAX_IMAGE_TOKENS);
        if (Math.max(w, h) <= 1568)
          expect(tokens).toBe(Math.min(1600, Math.max(1, Math.ceil((w * h) / 750))));
      }),
    );
  });

  it('OpenAI: 85 + 170 per tile, at most 8 tiles (768 × 2048)', () => {
    fc.assert(
      fc.property(sideArb, sideArb, (w, h) => {
        const tiles = (openAIImageTokens(w, h) - OPENAI_BASE_IMAGE_TOKENS) / OPENAI_TILE_TOKENS;
        expect(Number.isInteger(tiles) && tiles >= 1 && tiles <= 8).toBe(true);
      }),
    );
  });

  it('Gemini: 258 per 768 px tile', () => {
    fc.assert(
      fc.property(sideArb, sideArb, (w, h) => {
        expect(geminiImageTokens(w, h) % GEMINI_IMAGE_TOKENS).toBe(0);
      }),
    );
  });
});

describe('estimateMediaPartTokens', () => {
  it("prices an image by its width and height under each provider's rule", () => {
    for (const rule of MEDIA_TOKEN_RULES) {
      expect(estimateMediaPartTokens(image({ width: 800, height: 600 }), rule, countChars)).toBe(
        IMAGE_TOKENS[rule](800, 600),
      );
    }
  });

  it('guesses an image of unknown size from its bytes (a square of √(2 × bytes) px), a URL as 2048 px', () => {
    const blob = image({ source: { type: 'blob', sha256: SHA, size: 20_000 } });
    expect(estimateMediaPartTokens(blob, 'anthropic', countChars)).toBe(anthropicImageTokens(200, 200));
    expect(estimateMediaPartTokens(image(), 'gemini', countChars)).toBe(
      geminiImageTokens(UNKNOWN_IMAGE_SIDE, UNKNOWN_IMAGE_SIDE),
    );
    const huge = image({ source: { type: 'blob', sha256: SHA, size: 50_000_000 } });
    expect(estimateMediaPartTokens(huge, 'openai', countChars)).toBe(
      openAIImageTokens(UNKNOWN_IMAGE_SIDE, UNKNOWN_IMAGE_SIDE),
    );
  });

  it('prices a PDF per page: pages counted in its bytes, else one per 50 KB of it', () => {
    const threePages = `%PDF-1.4\n1 0 obj << /Type /Pages /Kids [2 0 R 3 0 R 4 0 R] /Count 3 >> endobj\n${[
      2, 3, 4,
    ]
      .map((id) => `${id} 0 obj << /Type /Page /Parent 1 0 R >> endobj`)
      .join('\n')}`;
    const pdf = file('application/pdf', { type: 'base64', data: latin1Base64(threePages) });
    for (const rule of MEDIA_TOKEN_RULES) {
      expect(estimateMediaPartTokens(pdf, rule, countChars)).toBe(3 * PDF_PAGE_TOKENS[rule]);
    }
    expect(PDF_PAGE_TOKENS.gemini).toBe(258);
    const blob = file('application/pdf', { type: 'blob', sha256: SHA, size: 4 * PDF_BYTES_PER_PAGE + 1 });
    expect(estimateMediaPartTokens(blob, 'anthropic', countChars)).toBe(5 * PDF_PAGE_TOKENS.anthropic);
    const url = file('application/pdf', { type: 'url', url: 'https://example.com/a.pdf' });
    expect(estimateMediaPartTokens(url, 'anthropic', countChars)).toBe(PDF_PAGE_TOKENS.anthropic);
  });

  it("reads a PDF's page count from its page tree when its page objects are compressed", () => {
    const bytes = Uint8Array.from('%PDF-1.7\n<< /Type /Pages /Kids [] /Count 12 >>', (c) => c.charCodeAt(0));
    expect(pdfPageCount(bytes)).toBe(12);
    expect(
      pdfPageCount(Uint8Array.from('%PDF-1.7 nothing readable', (c) => c.charCodeAt(0))),
    ).toBeUndefined();
  });

  it('prices another file as the text it is', () => {
    const csv = file('text/csv', {
      type: 'base64',
      data: bytesToBase64(new TextEncoder().encode('a,b\n1,2\n')),
    });
    expect(estimateMediaPartTokens(csv, 'openai', countChars)).toBe(8);
    const blob = file('text/plain', { type: 'blob', sha256: SHA, size: 4_001 });
    expect(estimateMediaPartTokens(blob, 'openai', countChars)).toBe(1_001);
  });

  it('is a finite number ≥ 1 for any media part', () => {
    const sourceArb = fc.oneof(
      fc.record({
        type: fc.constant('blob' as const),
        sha256: fc.constant(SHA),
        size: fc.integer({ min: 1, max: 1e9 }),
      }),
      fc.record({ type: fc.constant('url' as const), url: fc.constant('https://example.com/x') }),
      fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((bytes) => ({ type: 'base64' as const, data: bytesToBase64(bytes) })),
    );
    const partArb: fc.Arbitrary<MediaPart> = fc.oneof(
      fc.record(
        {
          type: fc.constant('image' as const),
          mediaType: fc.constant('image/png'),
          source: sourceArb,
          width: sideArb,
          height: sideArb,
        },
        { requiredKeys: ['type', 'mediaType', 'source'] },
      ),
      fc.record({
        type: fc.constant('file' as const),
        mediaType: fc.constantFrom('application/pdf', 'text/plain'),
        source: sourceArb,
      }),
    );
    fc.assert(
      fc.property(partArb, ruleArb, (part, rule: MediaTokenRules) => {
        const tokens = estimateMediaPartTokens(part, rule, (text) => Math.max(1, text.length));
        expect(Number.isFinite(tokens) && tokens >= 1).toBe(true);
      }),
    );
  });
});
