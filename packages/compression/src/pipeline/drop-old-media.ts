import { type ContentPart, isMediaPart, type ModelMessage, partPlaceholder } from '@cairn/core';
import { type CompressionWork, messageTokens } from './compression-work.js';
import { protectedStart } from './turn-units.js';

/** What an image or file left out of the request is sent as: `[image: chart.png — removed from context to save space]`. */
export function removedPartPlaceholder(part: ContentPart): string {
  return `${partPlaceholder(part).slice(0, -1)} — removed from context to save space]`;
}

/**
 * Step 1: images and files before the latest user turn (and before a running loop's messages,
 * which start at `limit`) give way to a text placeholder, oldest first, so the newest are kept
 * longest. They are the costliest parts of an old turn and the cheapest to lose: the text around
 * them stays, and the recent window keeps its messages. Unknown part types are left as they are.
 */
export function dropOldMedia(work: CompressionWork, limit: number, target: number): void {
  const tokensBefore = work.tokens;
  const end = protectedStart(work.messages, 0, limit, work.floor);
  let changed = 0;
  for (let index = work.floor; index < end && work.tokens > target; index++) {
    const original = work.messages[index] as ModelMessage;
    let message = original;
    for (let at = 0; Array.isArray(message.content) && at < message.content.length; at++) {
      if (work.tokens <= target) break;
      const part = message.content[at] as ContentPart;
      if (!isMediaPart(part)) continue;
      const content = message.content.with(at, { type: 'text', text: removedPartPlaceholder(part) });
      const next = { ...message, content } as ModelMessage;
      work.tokens += messageTokens(work, next) - messageTokens(work, message);
      message = next;
    }
    if (message === original) continue;
    work.messages[index] = message;
    changed++;
  }
  if (changed > 0)
    work.steps.push({ step: 'drop-old-media', messages: changed, tokensBefore, tokensAfter: work.tokens });
}
