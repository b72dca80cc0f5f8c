import { blocksOf } from './anthropic-turns.js';

// Mid-conversation system messages came with Claude Opus 4.8; earlier models refuse the role.
const FIRST_VERSION = 4.8;

/** The Claude version a model id names (`claude-opus-4-8` → 4.8, `claude-3-5-sonnet-…` → 3.5), if any. */
function claudeVersion(model: unknown): number | undefined {
  if (typeof model !== 'string') return undefined;
  const match = /^claude-(?:[a-z]+-)?(\d+)(?:-(\d)(?!\d))?(?:-|$)/.exec(model);
  if (match === null) return undefined;
  return Number(match[1]) + Number(match[2] ?? 0) / 10;
}

/**
 * A `role: "system"` message inside `messages` (a mid-conversation system message): accepted on
 * Claude Opus 4.8 and later (and on model ids the mock does not know, so scripts may name any
 * model), right after a user message, with text content only.
 */
export function anthropicSystemMessageProblem(
  model: unknown,
  messages: Record<string, unknown>[],
  index: number,
): string | undefined {
  const version = claudeVersion(model);
  if (version !== undefined && version < FIRST_VERSION) {
    return `messages.${index}.role: role 'system' is not supported on this model`;
  }
  if (messages[index - 1]?.role !== 'user') {
    return `messages.${index}: a \`system\` message must immediately follow a \`user\` message`;
  }
  const blocks = blocksOf(messages[index]?.content);
  if (blocks.length === 0) return `messages.${index}: system messages must have non-empty content`;
  const other = blocks.findIndex((block) => block.type !== 'text' || block.text === '');
  if (other >= 0) return `messages.${index}.content.${other}.type: Input should be a non-empty 'text' block`;
  return undefined;
}
