import { isRecord } from '../is-record.js';

export type AnthropicBlock = Record<string, unknown>;

/** A conversational turn as the API sees it: consecutive same-role messages combined. */
export interface AnthropicTurn {
  role: 'user' | 'assistant';
  /** The blocks of the combined messages, each with the path the API's errors name it by. */
  blocks: { block: AnthropicBlock; message: number; at: number }[];
  /** The index of the turn's first and last message in `messages`. */
  first: number;
  last: number;
}

// A string content is one text block; an empty string is no content at all.
export const blocksOf = (content: unknown): AnthropicBlock[] => {
  if (Array.isArray(content)) return content.filter(isRecord);
  return typeof content === 'string' && content !== '' ? [{ type: 'text', text: content }] : [];
};

/**
 * The user and assistant turns of `messages`. The API combines consecutive user (or assistant)
 * messages into one turn ("Using the Messages API"), so alternation is checked on turns, not on
 * messages; `system` messages (mid-conversation system messages) are not part of either turn.
 */
export function anthropicTurns(messages: Record<string, unknown>[]): AnthropicTurn[] {
  const turns: AnthropicTurn[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const blocks = blocksOf(message.content).map((block, at) => ({ block, message: index, at }));
    const previous = turns.at(-1);
    if (previous?.role === message.role && previous.last === index - 1) {
      previous.blocks.push(...blocks);
      previous.last = index;
    } else {
      turns.push({ role: message.role, blocks, first: index, last: index });
    }
  }
  return turns;
}
