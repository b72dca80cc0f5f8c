import type { ModelMessage } from '@cairn/core';
import { type CompressionWork, messageTokens } from './compression-work.js';

/**
 * Step 2: old tool outputs over twice `previewLength` characters are cut to the preview, oldest
 * first. A shorter one is left whole: cutting it would save less than the preview it keeps. An
 * output of parts (a tool that returned an image) is left to step 1.
 */
export function trimToolOutputs(work: CompressionWork, previewLength: number, target: number): void {
  const tokensBefore = work.tokens;
  let trimmed = 0;
  for (let index = work.floor; index < work.protectedFrom && work.tokens > target; index++) {
    const message = work.messages[index] as ModelMessage;
    if (
      message.role !== 'tool' ||
      typeof message.content !== 'string' ||
      message.content.length <= previewLength * 2
    )
      continue;
    const removed = message.content.length - previewLength;
    const cut: ModelMessage = {
      ...message,
      content: `${message.content.slice(0, previewLength)}\n[… ${removed} more characters of this output were left out to save context; run the tool again if they are needed]`,
    };
    work.tokens += messageTokens(work, cut) - messageTokens(work, message);
    work.messages[index] = cut;
    trimmed++;
  }
  if (trimmed > 0)
    work.steps.push({
      step: 'trim-tool-outputs',
      messages: trimmed,
      tokensBefore,
      tokensAfter: work.tokens,
    });
}
