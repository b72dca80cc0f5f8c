import type {
  ContentBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  CairnError,
  contentText,
  hasNonTextParts,
  type ModelAssistantMessage,
  type ModelMessage,
  type ModelToolMessage,
} from '@cairn/core';
import { EMPTY_TOOL_ERROR_TEXT } from '@cairn/provider-utils';
import { toAnthropicThinkingBlock } from './anthropic-reasoning-metadata.js';
import { toAnthropicToolInput } from './anthropic-tool-input.js';
import { toAnthropicContentBlocks } from './to-anthropic-content-blocks.js';

/** One turn of an Anthropic conversation; `system` is a separate request field. */
export interface AnthropicTurn {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

export interface AnthropicPrompt {
  /** The system messages' text blocks in order; absent when there is none. */
  system?: TextBlockParam[];
  /** Starts with a `user` turn and alternates roles. */
  messages: AnthropicTurn[];
}

/** The user turn put before a conversation that starts with the assistant: Anthropic requires `user` first. */
export const LEADING_USER_TEXT = '(continued)';

/**
 * Converts OpenAI-shaped messages to an Anthropic Messages request: system messages move to
 * `system`; tool results become `tool_result` blocks (with `is_error`) of a `user` turn; blank
 * text is never sent; images and documents of user messages and tool results become `image` /
 * `document` blocks (`toAnthropicContentBlocks`); consecutive turns of one role (several tool results, a user message after
 * them) merge into one turn, with the tool results first; reasoning is replayed as `thinking` /
 * `redacted_thinking` only when it carries Anthropic's signature or data; a conversation ending
 * with an assistant turn (a prefill) has the trailing whitespace of that turn's last text block
 * trimmed, which the API requires. Throws `INVALID_ARGUMENT` when nothing but system text is left
 * to send.
 */
export function convertToAnthropicMessages(messages: readonly ModelMessage[]): AnthropicPrompt {
  const system: TextBlockParam[] = [];
  const turns: AnthropicTurn[] = [];
  const append = (role: AnthropicTurn['role'], blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(...textBlocks(message.content));
        break;
      case 'user':
        append('user', toAnthropicContentBlocks(message.content, 'user message'));
        break;
      case 'assistant':
        append('assistant', assistantBlocks(message));
        break;
      case 'tool':
        append('user', [toolResultBlock(message)]);
        break;
    }
  }

  if (turns.length === 0) {
    throw new CairnError('INVALID_ARGUMENT', 'the request has no user or assistant content to send');
  }
  if (turns[0]?.role === 'assistant') {
    turns.unshift({ role: 'user', content: [{ type: 'text', text: LEADING_USER_TEXT }] });
  }
  for (const turn of turns) if (turn.role === 'user') turn.content = toolResultsFirst(turn.content);
  trimFinalAssistantText(turns);
  return { ...(system.length > 0 ? { system } : {}), messages: turns };
}

// Anthropic refuses text blocks that are empty or only whitespace.
function textBlocks(text: string | null): TextBlockParam[] {
  return text === null || text.trim() === '' ? [] : [{ type: 'text', text }];
}

function assistantBlocks(message: ModelAssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of message.reasoning ?? []) {
    const block = toAnthropicThinkingBlock(part);
    if (block !== undefined) blocks.push(block);
  }
  blocks.push(...textBlocks(message.content));
  for (const call of message.tool_calls ?? []) {
    const block: ToolUseBlockParam = {
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toAnthropicToolInput(call.function.arguments),
    };
    blocks.push(block);
  }
  return blocks;
}

// Text-only results stay one string (as before parts existed); images and documents make a block list.
function toolResultBlock(message: ModelToolMessage): ToolResultBlockParam {
  const isError = message.isError === true;
  const content = hasNonTextParts(message.content)
    ? toAnthropicContentBlocks(message.content, `tool result ${message.tool_call_id}`)
    : contentText(message.content);
  const hasContent = typeof content === 'string' ? content.trim() !== '' : content.length > 0;
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id,
    ...(hasContent ? { content } : isError ? { content: EMPTY_TOOL_ERROR_TEXT } : {}),
    ...(isError ? { is_error: true } : {}),
  };
}

// Anthropic refuses a final assistant turn whose content ends with whitespace ("final assistant
// content cannot end with trailing whitespace"). The block is never blank (see `textBlocks`).
function trimFinalAssistantText(turns: AnthropicTurn[]): void {
  const last = turns.at(-1);
  if (last?.role !== 'assistant') return;
  const index = last.content.findLastIndex((block) => block.type === 'text');
  const block = last.content[index];
  if (block?.type === 'text') last.content[index] = { ...block, text: block.text.trimEnd() };
}

// Anthropic wants a user turn's tool_result blocks before its other content.
function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === blocks.length) return blocks;
  return [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}
