import { compactionSummaryText, definedFields, type ModelMessage } from '@cairn/core';
import {
  type CompressionWork,
  messageTokens,
  oldestUnitsToRemove,
  replaceOldest,
} from './compression-work.js';
import type { Summarizer } from './summarizer.js';

/**
 * Step 3: the oldest whole turns replaced by one summary message. Returns why, when the summary
 * could not be used (the history is then as it was).
 */
export async function summarizeTurns(
  work: CompressionWork,
  target: number,
  summarizer: Summarizer,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const tokensBefore = work.tokens;
  // Room for the summary itself: a tenth of what is summarised, at most 2,000 tokens.
  const { end, tokens } = oldestUnitsToRemove(work, target, Math.min(2_000, (work.tokens - target) / 10));
  if (end - work.floor < 2) return undefined;
  const selected = work.messages.slice(work.floor, end);
  const failed = (error: string) => {
    work.steps.push({ step: 'summarize', messages: 0, tokensBefore, tokensAfter: tokensBefore, error });
    return error;
  };
  let text: string;
  try {
    text = (await summarizer.summarize({ messages: selected, ...definedFields({ signal }) })).trim();
    if (text === '') throw new Error('the summariser returned no text');
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
  const summary: ModelMessage = { role: 'user', content: compactionSummaryText(text) };
  const summaryTokens = messageTokens(work, summary);
  // A summary that saves nothing would only lose detail (a short history summarised at length).
  if (summaryTokens >= tokens) {
    return failed(
      `the summary (${summaryTokens} tokens) is no shorter than the ${selected.length} messages it would replace (${tokens} tokens)`,
    );
  }
  const origins = work.origin.slice(work.floor, end).filter((origin) => origin >= 0);
  replaceOldest(work, end, [summary]);
  work.tokens += summaryTokens - tokens;
  if (origins.length > 0) {
    work.summaries.push({
      text,
      fromIndex: origins[0] as number,
      toIndex: origins.at(-1) as number,
      tokensBefore: tokens,
      tokensAfter: summaryTokens,
    });
  }
  work.steps.push({ step: 'summarize', messages: selected.length, tokensBefore, tokensAfter: work.tokens });
  return undefined;
}
