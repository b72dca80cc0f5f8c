import { isRecord } from '../is-record.js';
import { anthropicBlockProblem } from './anthropic-block-rules.js';
import { anthropicSystemMessageProblem } from './anthropic-system-message-rules.js';
import { anthropicThinkingProblem } from './anthropic-thinking-rules.js';
import { type AnthropicTurn, anthropicTurns, blocksOf } from './anthropic-turns.js';

const idsOf = (turn: AnthropicTurn | undefined, type: string, key: string): string[] =>
  (turn?.blocks ?? []).flatMap(({ block }) =>
    block.type === type && typeof block[key] === 'string' ? [block[key] as string] : [],
  );

const unansweredProblem = (message: number, ids: string[]) =>
  `messages.${message}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;

/**
 * Every `tool_use` answered by a `tool_result` in the very next turn, the results first (before
 * any text), and no `tool_result` without its `tool_use` in the turn before.
 */
function toolAdjacencyProblem(turns: AnthropicTurn[]): string | undefined {
  for (const [index, turn] of turns.entries()) {
    const before = turns[index - 1];
    const called = new Set(before?.role === 'assistant' ? idsOf(before, 'tool_use', 'id') : []);
    const answered = idsOf(turn, 'tool_result', 'tool_use_id');
    const stray = answered.filter((id) => !called.has(id));
    if (stray.length > 0) {
      return `messages.${turn.first}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const missing = [...called].filter((id) => !answered.includes(id));
    if (missing.length > 0) return unansweredProblem(turn.first, missing);
    // "tool_result blocks must come FIRST in the content array": a result after text does not count.
    const firstOther = turn.blocks.findIndex(({ block }) => block.type !== 'tool_result');
    const late = turn.blocks.slice(firstOther < 0 ? turn.blocks.length : firstOther);
    const lateIds = late.flatMap(({ block }) =>
      block.type === 'tool_result' && called.has(String(block.tool_use_id))
        ? [String(block.tool_use_id)]
        : [],
    );
    if (lateIds.length > 0) return unansweredProblem(turn.first, lateIds);
  }
  const last = turns.at(-1);
  const lastCalls = last?.role === 'assistant' ? idsOf(last, 'tool_use', 'id') : [];
  return lastCalls.length > 0 && last !== undefined ? unansweredProblem(last.last, lastCalls) : undefined;
}

/**
 * The request rules api.anthropic.com enforces that adapters get wrong in practice: roles and
 * mid-conversation system messages, no empty text blocks or empty messages, tool use answered in
 * the next turn, thinking blocks and their signatures with thinking on, and the rules for images,
 * documents, cache breakpoints and structured output. `packages/testing/mock-rules/anthropic.md`
 * lists each rule with the documentation it comes from. Returns the API's error message, or
 * `undefined` when the body passes.
 */
export function anthropicRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'Invalid request body.';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return 'messages: at least one message is required';
  const messages = body.messages.map((message) => (isRecord(message) ? message : {}));
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system') {
      const system = anthropicSystemMessageProblem(body.model, messages, index);
      if (system !== undefined) return system;
      continue;
    }
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${index}.role: Input should be 'user', 'assistant' or 'system'`;
    }
    const blocks = blocksOf(message.content);
    const isFinalAssistant = index === messages.length - 1 && message.role === 'assistant';
    if (blocks.length === 0 && !isFinalAssistant) {
      return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (
      Array.isArray(message.content) &&
      blocks.some((block) => block.type === 'text' && block.text === '')
    ) {
      return 'messages: text content blocks must be non-empty';
    }
  }
  const turns = anthropicTurns(messages);
  return toolAdjacencyProblem(turns) ?? anthropicThinkingProblem(body, turns) ?? anthropicBlockProblem(body);
}
