import { CairnError, type MediaPart, type PartSource } from '@cairn/core';
import type { SpecificationVersion } from './ai-sdk-language-model.js';
import type { AiSdkFileData } from './ai-sdk-types.js';

/**
 * The bytes of an image or file part as `version` takes them: V4 wraps them (`{ type: 'data' }`,
 * `{ type: 'url' }`), V2 and V3 take the base64 text or a `URL` as they are.
 */
export function toAiSdkFileData(source: PartSource, version: SpecificationVersion): AiSdkFileData {
  switch (source.type) {
    case 'base64':
      return version === 'v4' ? { type: 'data', data: source.data } : source.data;
    case 'url':
      return version === 'v4' ? { type: 'url', url: new URL(source.url) } : new URL(source.url);
    default:
      throw unresolvedBlob(source);
  }
}

/** The base64 text of a part, for the tool-result shapes that take bytes only (V2 `media`). */
export function base64Of(part: MediaPart, what: string): string {
  if (part.source.type === 'base64') return part.source.data;
  throw new CairnError('UNSUPPORTED_CONTENT', `${what}: this AI SDK version takes only inline bytes here`, {
    details: { partType: part.type, mediaType: part.mediaType, sourceType: part.source.type },
  });
}

// A store moves large bytes to blobs; `resolveContentParts` must read them back before a request.
function unresolvedBlob(source: PartSource): CairnError {
  return new CairnError(
    'INVALID_MESSAGE',
    'a content part still points at a stored blob: resolve its bytes (resolveContentParts) before the model call',
    { details: { sourceType: source.type } },
  );
}
