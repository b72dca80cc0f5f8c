import type { AnthropicTurn } from './convert-to-anthropic-messages.js';

const isThinking = (type: string) => type === 'thinking' || type === 'redacted_thinking';
const onlyToolResults = (turn: AnthropicTurn) =>
  turn.content.length > 0 && turn.content.every((block) => block.type === 'tool_result');

/**
 * Whether `thinking: { type: 'enabled' }` can be sent for this conversation. While a tool loop is
 * open (the last turn carries tool results), the API requires the loop's first assistant turn to start with the
 * thinking it was answered with ("a final `assistant` message must start with a thinking
 * block"). A loop begun without thinking (thinking was off, or another provider made those
 * calls) cannot get it back, so thinking waits until the loop ends with the next user prompt. (`adaptive` thinking
 * may answer without thinking, so it takes such a loop and is always sent.)
 */
export function canThinkInToolLoop(turns: readonly AnthropicTurn[]): boolean {
  const last = turns.at(-1);
  if (last?.role !== 'user' || !last.content.some((block) => block.type === 'tool_result')) return true;
  let start = turns.length - 1;
  while (start > 0) {
    const before = turns[start - 1] as AnthropicTurn;
    if (before.role !== 'assistant' && !onlyToolResults(before)) break;
    start -= 1;
  }
  const opening = turns.slice(start).find((turn) => turn.role === 'assistant');
  const first = opening?.content[0];
  return first === undefined || isThinking(first.type);
}
