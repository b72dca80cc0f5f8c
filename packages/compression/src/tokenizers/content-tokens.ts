import { contentParts, isMediaPart, isTextPart, type MessageContent, partPlaceholder } from '@cairn/core';
import { estimateMediaPartTokens, type MediaTokenRules } from './media-part-tokens.js';

/**
 * Tokens of a message's content: text by `countText`, each image or file by its provider's rules
 * (`estimateMediaPartTokens`), a part of a type this version does not know as its placeholder.
 */
export function contentTokens(
  content: MessageContent | null | undefined,
  rules: MediaTokenRules,
  countText: (text: string) => number,
): number {
  if (typeof content === 'string') return countText(content);
  let tokens = 0;
  for (const part of contentParts(content)) {
    if (isTextPart(part)) tokens += countText(part.text);
    else if (isMediaPart(part)) tokens += estimateMediaPartTokens(part, rules, countText);
    else tokens += countText(partPlaceholder(part));
  }
  return tokens;
}
