import { isRecord } from '../is-record.js';
import { isAnthropicThinkingSignature } from './anthropic-thinking-signature.js';
import type { AnthropicTurn } from './anthropic-turns.js';

const THINKING_TYPES: ReadonlySet<unknown> = new Set(['thinking', 'redacted_thinking']);

/** Every `thinking` block must carry the signature the mock issued for its text; redacted ones their data. */
function signatureProblem(turns: AnthropicTurn[]): string | undefined {
  for (const { block, message, at } of turns.flatMap((turn) => turn.blocks)) {
    const path = `messages.${message}.content.${at}`;
    if (block.type === 'redacted_thinking') {
      if (typeof block.data !== 'string' || block.data === '') return `${path}.data: Field required`;
      continue;
    }
    if (block.type !== 'thinking') continue;
    if (typeof block.thinking !== 'string') return `${path}.thinking: Field required`;
    if (typeof block.signature !== 'string' || block.signature === '')
      return `${path}.signature: Field required`;
    if (!isAnthropicThinkingSignature(block.thinking, block.signature)) {
      return `${path}: Invalid \`signature\` in \`thinking\` block`;
    }
  }
  return undefined;
}

const onlyToolResults = (turn: AnthropicTurn) =>
  turn.blocks.length > 0 && turn.blocks.every(({ block }) => block.type === 'tool_result');

/**
 * With thinking enabled, a request that continues a tool-use loop (it ends in a user turn of tool
 * results) must send back the thinking the loop's first assistant message started with: the API
 * checks that message, the first after the last user turn that is not only tool results.
 */
function toolLoopProblem(turns: AnthropicTurn[]): string | undefined {
  const last = turns.at(-1);
  if (
    last === undefined ||
    last.role !== 'user' ||
    !last.blocks.some(({ block }) => block.type === 'tool_result')
  )
    return undefined;
  let start = turns.length - 1;
  while (
    start > 0 &&
    (turns[start - 1]?.role === 'assistant' || onlyToolResults(turns[start - 1] as AnthropicTurn))
  )
    start -= 1;
  const opening = turns.slice(start).find((turn) => turn.role === 'assistant');
  const first = opening?.blocks[0];
  if (opening === undefined || first === undefined || THINKING_TYPES.has(first.block.type)) return undefined;
  return `messages.${opening.first}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.block.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
}

/**
 * The extended-thinking rules: signed thinking blocks, thinking replayed at the start of a tool
 * loop with `thinking: { type: 'enabled' }` (not with `adaptive`, where Claude may answer without
 * thinking), and no thinking in a final (prefilled) assistant message when thinking is off.
 */
export function anthropicThinkingProblem(
  body: Record<string, unknown>,
  turns: AnthropicTurn[],
): string | undefined {
  const signature = signatureProblem(turns);
  if (signature !== undefined) return signature;
  const type = isRecord(body.thinking) ? body.thinking.type : undefined;
  // Adaptive thinking lets Claude skip thinking, so a loop it began without thinking is valid.
  if (type === 'enabled') return toolLoopProblem(turns);
  if (type === 'adaptive') return undefined;
  const last = turns.at(-1);
  const prefilled =
    last?.role === 'assistant' ? last.blocks.find(({ block }) => THINKING_TYPES.has(block.type)) : undefined;
  if (prefilled === undefined) return undefined;
  return `messages.${prefilled.message}.content.${prefilled.at}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`;
}
