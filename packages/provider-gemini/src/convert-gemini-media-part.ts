import { CairnError, type MediaPart } from '@cairn/core';
import type { GeminiPart } from './gemini-api-types.js';

/**
 * An image or file part as Gemini's: inline bytes become `inlineData` (base64, as the part holds
 * them), a URL becomes `fileData` — Gemini fetches Files API URIs, YouTube URLs and (since January
 * 2026) public or signed https URLs itself. `where` names the part in errors (`message 2 part 1`).
 */
export function convertGeminiMediaPart(part: MediaPart, where: string): GeminiPart {
  const { source, mediaType: mimeType } = part;
  switch (source.type) {
    case 'base64':
      return { inlineData: { mimeType, data: source.data } };
    case 'url':
      return { fileData: { mimeType, fileUri: source.url } };
    case 'blob':
      // The store keeps the bytes; the caller reads them back before a request.
      throw new CairnError(
        'INVALID_MESSAGE',
        `${where}: its bytes are in the store (blob ${source.sha256.slice(0, 12)}…); read them first with @cairn/storage's resolveContentParts`,
        { details: { provider: 'gemini', sha256: source.sha256 } },
      );
  }
}
