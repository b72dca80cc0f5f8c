import { isRecord } from '../is-record.js';
import { anthropicBlockProblem } from './anthropic-block-rules.js';

type Block = Record<string, unknown>;

// A string content is one text block; an empty string is no content at all.
const blocksOf = (content: unknown): Block[] => {
  if (Array.isArray(content)) return content.filter(isRecord);
  return typeof content === 'string' && content !== '' ? [{ type: 'text', text: content }] : [];
};

const idsOf = (blocks: Block[], type: string, key: string): string[] =>
  blocks.flatMap((block) =>
    block.type === type && typeof block[key] === 'string' ? [block[key] as string] : [],
  );

/**
 * The request rules api.anthropic.com enforces that adapters get wrong in practice: no system
 * role in `messages`, no empty text blocks or empty messages, and every `tool_use` answered by a
 * `tool_result` in the very next message (and no `tool_result` without its `tool_use`), and the
 * rules for images, documents, cache breakpoints and structured output (`anthropicBlockProblem`). Returns
 * the API's error message, or `undefined` when the body passes.
 */
export function anthropicRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'Invalid request body.';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return 'messages: at least one message is required';
  const messages = body.messages.map((message) => (isRecord(message) ? message : {}));
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
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
    const previous = index > 0 ? blocksOf(messages[index - 1]?.content) : [];
    const called = new Set(
      messages[index - 1]?.role === 'assistant' ? idsOf(previous, 'tool_use', 'id') : [],
    );
    const answered = idsOf(blocks, 'tool_result', 'tool_use_id');
    const stray = answered.filter((id) => !called.has(id));
    if (stray.length > 0) {
      return `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const missing = [...called].filter((id) => !answered.includes(id));
    if (missing.length > 0) {
      return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  const last = messages.at(-1);
  const lastCalls = last?.role === 'assistant' ? idsOf(blocksOf(last.content), 'tool_use', 'id') : [];
  if (lastCalls.length > 0) {
    return `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${lastCalls.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  return anthropicBlockProblem(body);
}
