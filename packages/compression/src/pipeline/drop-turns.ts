import type { ModelMessage } from '@cairn/core';
import {
  type CompressionWork,
  messageTokens,
  oldestUnitsToRemove,
  replaceOldest,
} from './compression-work.js';

/** Step 4: the oldest whole turns left out, with a note saying so. */
export function dropTurns(work: CompressionWork, target: number): void {
  const tokensBefore = work.tokens;
  const note = (count: number): ModelMessage => ({
    role: 'user',
    content: `[${count} earlier messages were left out to fit the context window.]`,
  });
  const { end, tokens } = oldestUnitsToRemove(work, target, messageTokens(work, note(0)));
  const count = end - work.floor;
  const marker = note(count);
  // A note costlier than what it stands for (one short message) would only lose the message.
  if (count === 0 || messageTokens(work, marker) >= tokens) return;
  replaceOldest(work, end, [marker]);
  work.tokens += messageTokens(work, marker) - tokens;
  work.steps.push({ step: 'drop-turns', messages: count, tokensBefore, tokensAfter: work.tokens });
}
