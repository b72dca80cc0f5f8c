import { type ContentPart, isMediaPart, type MessageContent, type TextPart } from './content-part.js';

/** A text part (narrows away media and unknown parts). */
export function isTextPart(part: ContentPart): part is TextPart {
  return part.type === 'text' && typeof part.text === 'string';
}

/** `content` as parts: a string is one text part (none when empty); absent is none. */
export function contentParts(content: MessageContent | null | undefined): ContentPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content;
}

/** A short stand-in for a part that is not text: `[image: chart.png]`, `[file: report.pdf]`, `[audio]`. */
export function partPlaceholder(part: ContentPart): string {
  const name = isMediaPart(part) && part.fileName !== undefined ? `: ${part.fileName}` : '';
  return `[${part.type}${name}]`;
}

/**
 * The text of `content`: a string as is; parts' text joined with newlines, other parts shown as
 * `partPlaceholder` when `placeholders` is set (for titles, search and text-only views).
 */
export function contentText(
  content: MessageContent | null | undefined,
  { placeholders = false }: { placeholders?: boolean } = {},
): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of contentParts(content)) {
    if (isTextPart(part)) texts.push(part.text);
    else if (placeholders) texts.push(partPlaceholder(part));
  }
  return texts.join('\n');
}

/** Whether `content` holds any part that is not text. */
export function hasNonTextParts(content: MessageContent | null | undefined): boolean {
  return Array.isArray(content) && content.some((part) => part.type !== 'text');
}
