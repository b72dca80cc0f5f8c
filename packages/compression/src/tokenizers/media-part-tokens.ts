import { base64ByteLength, base64ToBytes, type MediaPart } from '@cairn/core';

/** Whose published rules price an image or a document. */
export type MediaTokenRules = 'anthropic' | 'openai' | 'gemini';

export const MEDIA_TOKEN_RULES: readonly MediaTokenRules[] = ['anthropic', 'openai', 'gemini'];

// Anthropic (docs "Vision"): an image whose long edge is over 1568 px, or that is over ~1.15 MP
// (about 1,600 tokens), is first scaled down keeping its aspect; it then costs width × height / 750.
export const ANTHROPIC_MAX_EDGE = 1568;
export const ANTHROPIC_PIXELS_PER_TOKEN = 750;
export const ANTHROPIC_MAX_IMAGE_TOKENS = 1600;

/** Anthropic's tokens for an image of `width` × `height` px: `min(1600, ⌈w′·h′ / 750⌉)` after fitting 1568 px. */
export function anthropicImageTokens(width: number, height: number): number {
  const scale = Math.min(1, ANTHROPIC_MAX_EDGE / Math.max(width, height));
  const pixels = Math.round(width * scale) * Math.round(height * scale);
  return Math.max(1, Math.min(ANTHROPIC_MAX_IMAGE_TOKENS, Math.ceil(pixels / ANTHROPIC_PIXELS_PER_TOKEN)));
}

// OpenAI (docs "Images and vision", GPT-4o/4.1 class): `detail: low` is a flat 85; otherwise the
// image is scaled to fit 2048 × 2048, then so its shortest side is 768 (never up), and costs 85 plus
// 170 per 512 px tile covering it. Cairn sends no `detail`, so OpenAI's `auto` applies; the high
// rule is the estimate (auto never costs more).
export const OPENAI_BASE_IMAGE_TOKENS = 85;
export const OPENAI_TILE_TOKENS = 170;

/** OpenAI's tokens for an image of `width` × `height` px by the tile rule (85 for `detail: 'low'`). */
export function openAIImageTokens(
  width: number,
  height: number,
  detail: 'low' | 'high' | 'auto' = 'auto',
): number {
  if (detail === 'low') return OPENAI_BASE_IMAGE_TOKENS;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  let w = width * fit;
  let h = height * fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  w *= shorten;
  h *= shorten;
  const tiles = Math.ceil(Math.round(w) / 512) * Math.ceil(Math.round(h) / 512);
  return OPENAI_BASE_IMAGE_TOKENS + OPENAI_TILE_TOKENS * Math.max(1, tiles);
}

// Gemini (docs "Token counting", Gemini 2.x): an image with both sides ≤ 384 px is 258 tokens; a
// larger one is cropped and scaled into 768 × 768 tiles, 258 tokens each. A PDF page is 258 tokens.
export const GEMINI_IMAGE_TOKENS = 258;

/** Gemini's tokens for an image of `width` × `height` px: 258, or 258 per 768 px tile when a side is over 384. */
export function geminiImageTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return GEMINI_IMAGE_TOKENS;
  return GEMINI_IMAGE_TOKENS * Math.ceil(width / 768) * Math.ceil(height / 768);
}

const IMAGE_TOKENS: Readonly<Record<MediaTokenRules, (width: number, height: number) => number>> = {
  anthropic: anthropicImageTokens,
  openai: openAIImageTokens,
  gemini: geminiImageTokens,
};

// A PDF page is sent as its text and an image of the page. Anthropic documents 1,500–3,000 text
// tokens a page plus the page image (~1,600 at its size cap); OpenAI extracts the text too (o200k
// is ~15% denser) plus a page image by the tile rule (a Letter page: 4 tiles, 765); Gemini counts
// 258 a page.
export const PDF_PAGE_TOKENS: Readonly<Record<MediaTokenRules, number>> = {
  anthropic: 1_500 + ANTHROPIC_MAX_IMAGE_TOKENS,
  openai: 1_300 + openAIImageTokens(612, 792),
  gemini: GEMINI_IMAGE_TOKENS,
};

/** Without its bytes, a PDF is taken to hold a page per this many bytes (text PDFs run 5–50 KB a page). */
export const PDF_BYTES_PER_PAGE = 50_000;
/** An image of unknown pixel size is taken for a square of `√(bytes × this)` px (compressed images run ~½–1 byte a pixel). */
export const IMAGE_PIXELS_PER_BYTE = 2;
/** The side of that square at most, and of an image known by URL only (its byte size unknown). */
export const UNKNOWN_IMAGE_SIDE = 2048;
/** A file that is not a PDF is text to the provider: without its bytes, one token per this many bytes. */
export const TEXT_BYTES_PER_TOKEN = 4;

/** Decoded byte count of a part: from its base64 or its blob's size; undefined for a URL. */
export function mediaPartByteSize(part: MediaPart): number | undefined {
  const { source } = part;
  if (source.type === 'base64') return base64ByteLength(source.data);
  if (source.type === 'blob') return source.size;
  return undefined;
}

const latin1 = new TextDecoder('latin1');

/**
 * The pages of a PDF, read from its page objects (`/Type /Page`), or from its page tree's largest
 * `/Count` when they are in compressed object streams; undefined when neither is readable.
 */
export function pdfPageCount(bytes: Uint8Array): number | undefined {
  const text = latin1.decode(bytes);
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  if (pages > 0) return pages;
  let count = 0;
  for (const match of text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g)) {
    count = Math.max(count, Number(match[1]));
  }
  return count > 0 ? count : undefined;
}

function imageSide(part: MediaPart): number {
  const bytes = mediaPartByteSize(part);
  if (bytes === undefined) return UNKNOWN_IMAGE_SIDE;
  return Math.max(1, Math.min(UNKNOWN_IMAGE_SIDE, Math.round(Math.sqrt(bytes * IMAGE_PIXELS_PER_BYTE))));
}

function pdfPages(part: MediaPart): number {
  if (part.source.type === 'base64') {
    const pages = pdfPageCount(base64ToBytes(part.source.data));
    if (pages !== undefined) return pages;
  }
  return Math.max(1, Math.ceil((mediaPartByteSize(part) ?? PDF_BYTES_PER_PAGE) / PDF_BYTES_PER_PAGE));
}

/**
 * Estimated input tokens of an image or file part under a provider's published rules: an image by
 * its `width`/`height` (else a square guessed from its byte size, see `IMAGE_PIXELS_PER_BYTE`); a
 * PDF by its pages (counted in its bytes, else one per `PDF_BYTES_PER_PAGE`) times `PDF_PAGE_TOKENS`;
 * another file as the text it is (`countText` of its bytes; without them, bytes / 4, a URL's as
 * `PDF_BYTES_PER_PAGE` bytes).
 */
export function estimateMediaPartTokens(
  part: MediaPart,
  rules: MediaTokenRules,
  countText: (text: string) => number,
): number {
  if (part.type === 'image') {
    const { width, height } = part;
    if (width !== undefined && height !== undefined) return IMAGE_TOKENS[rules](width, height);
    const side = imageSide(part);
    return IMAGE_TOKENS[rules](side, side);
  }
  if (part.mediaType === 'application/pdf') return pdfPages(part) * PDF_PAGE_TOKENS[rules];
  if (part.source.type === 'base64')
    return countText(new TextDecoder().decode(base64ToBytes(part.source.data)));
  return Math.ceil((mediaPartByteSize(part) ?? PDF_BYTES_PER_PAGE) / TEXT_BYTES_PER_TOKEN);
}
