import { addTokenUsage } from '@cairn/core';
import type { ChatToolLoopResult } from '@cairn/loop';

/**
 * One turn's result from a loop that failed and the loop that retried its last call: the retry's
 * outcome, with the model calls and usage of both (the failed call counted once, as it was made).
 */
export function afterRetry(
  first: ChatToolLoopResult<unknown>,
  retry: ChatToolLoopResult<unknown>,
): ChatToolLoopResult<unknown> {
  const turns = [...first.usage.turns, ...retry.usage.turns];
  return {
    ...retry,
    turns: first.turns + retry.turns,
    usage: { turns, total: addTokenUsage(first.usage.total, retry.usage.total) },
  };
}
