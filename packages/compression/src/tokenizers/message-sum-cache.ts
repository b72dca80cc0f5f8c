import type { ModelMessage } from '@cairn/core';

/**
 * Lists this short are summed directly and leave the running totals alone, so counting single
 * messages (`count([message]) - count([])`) between counts of a long history does not cost the
 * history its totals.
 */
export const SHORT_LIST_LENGTH = 16;

/**
 * Sums per-message token counts so that counting a history again after a few new messages costs
 * only those messages. Each message is counted once (cached by object, so a message replaced by a
 * new object is counted afresh), and the running totals of the last list summed are kept: a list
 * that starts with the same objects reuses the total of that common prefix, found by comparing
 * references, never contents. Messages are treated as immutable: editing one in place is not seen.
 */
export class MessageSumCache {
  readonly #countMessage: (message: ModelMessage) => number;
  readonly #perMessage = new WeakMap<ModelMessage, number>();
  /** The last list summed, and `#totals[i]`: the sum of its first `i` messages. */
  #messages: ModelMessage[] = [];
  #totals: number[] = [0];

  constructor(countMessage: (message: ModelMessage) => number) {
    this.#countMessage = countMessage;
  }

  /** Tokens of one message, counted once per message object. */
  messageTokens(message: ModelMessage): number {
    let tokens = this.#perMessage.get(message);
    if (tokens === undefined) {
      tokens = this.#countMessage(message);
      this.#perMessage.set(message, tokens);
    }
    return tokens;
  }

  /** The sum of the messages' tokens: O(common prefix) reference compares + O(rest) lookups. */
  sum(messages: readonly ModelMessage[]): number {
    if (messages.length <= SHORT_LIST_LENGTH) {
      let total = 0;
      for (const message of messages) total += this.messageTokens(message);
      return total;
    }
    const known = this.#messages;
    const limit = Math.min(messages.length, known.length);
    let common = 0;
    while (common < limit && messages[common] === known[common]) common++;
    known.length = common;
    this.#totals.length = common + 1;
    let total = this.#totals[common] ?? 0;
    for (let index = common; index < messages.length; index++) {
      const message = messages[index] as ModelMessage;
      total += this.messageTokens(message);
      known.push(message);
      this.#totals.push(total);
    }
    return total;
  }
}
