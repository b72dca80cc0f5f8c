import { type ContentPart, isMediaPart, isTextPart } from '@cairn/core';

// "image 800×600" when the size is known, "PDF", "file (text/csv)", or the type of a part this
// version does not know ("audio").
function describePart(part: ContentPart): string {
  if (!isMediaPart(part)) return part.type;
  if (part.type === 'image') {
    return part.width !== undefined && part.height !== undefined
      ? `image ${part.width}×${part.height}`
      : 'image';
  }
  return part.mediaType === 'application/pdf' ? 'PDF' : `file (${part.mediaType})`;
}

/**
 * What a tool result's parts other than text are, in a few words, for its summary ("Read shot.png →
 * image 800×600"); `undefined` when it has none.
 */
export function mediaSummary(parts: readonly ContentPart[]): string | undefined {
  const described = parts.filter((part) => !isTextPart(part)).map(describePart);
  return described.length === 0 ? undefined : described.join(', ');
}
