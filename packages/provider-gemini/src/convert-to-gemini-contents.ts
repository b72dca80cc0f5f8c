import { CairnError, type ModelAssistantMessage, type ModelMessage, type OpenAIToolCall } from '@cairn/core';
import { EMPTY_TOOL_ERROR_TEXT, textOnlyContent } from '@cairn/provider-utils';
import type { GeminiContent, GeminiPart, GeminiRole, GeminiSystemInstruction } from './gemini-api-types.js';
import { readThoughtSignature, readToolCallThoughtSignature } from './gemini-provider-metadata.js';

export interface GeminiPrompt {
  /** Every system message, in order; absent when there is no system text. */
  systemInstruction?: GeminiSystemInstruction;
  contents: GeminiContent[];
}

/**
 * Converts OpenAI-shaped messages to Gemini's request: system messages become the
 * `systemInstruction`, the assistant speaks as `model`, tool calls become `functionCall` parts and
 * tool results `functionResponse` parts of a `user` turn. Consecutive turns of one role are merged
 * (Gemini expects roles to alternate) and blank text is never sent; a failed tool result without
 * content gets a short error text. Thought signatures are replayed from the `gemini` metadata
 * namespace only; reasoning without one (another provider's) is dropped.
 */
export function convertToGeminiContents(messages: readonly ModelMessage[]): GeminiPrompt {
  const system: Array<{ text: string }> = [];
  const contents: GeminiContent[] = [];
  // Gemini names a function response by the function's name; the tool message only has the id.
  const toolNames = new Map<string, string>();
  // Without ids Gemini pairs responses with calls by position: each response's call position.
  const callPositions = new Map<string, number>();
  const responsePositions = new Map<GeminiPart, number>();

  const append = (role: GeminiRole, parts: GeminiPart[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (!isBlank(message.content)) system.push({ text: message.content });
        break;
      case 'user': {
        const text = textOnlyContent(message.content, 'gemini', 'user messages');
        if (!isBlank(text)) append('user', [{ text }]);
        break;
      }
      case 'assistant':
        message.tool_calls?.forEach((call, position) => {
          toolNames.set(call.id, call.function.name);
          callPositions.set(call.id, position);
        });
        append('model', assistantParts(message));
        break;
      case 'tool': {
        const name = toolNames.get(message.tool_call_id);
        if (name === undefined) {
          throw new CairnError(
            'INVALID_MESSAGE',
            `Tool result ${JSON.stringify(message.tool_call_id)} answers no earlier tool call`,
            { details: { toolCallId: message.tool_call_id } },
          );
        }
        const content = textOnlyContent(message.content, 'gemini', 'tool results');
        const response = message.isError
          ? { error: isBlank(content) ? EMPTY_TOOL_ERROR_TEXT : content }
          : { content };
        const part: GeminiPart = { functionResponse: { name, response } };
        responsePositions.set(part, callPositions.get(message.tool_call_id) ?? 0);
        append('user', [part]);
        break;
      }
    }
  }
  for (const content of contents)
    if (content.role === 'user') orderResponses(content.parts, responsePositions);

  return system.length > 0 ? { systemInstruction: { parts: system }, contents } : { contents };
}

/**
 * Puts a turn's function responses in the order of the calls they answer (results may be
 * recorded in the order the tools finished), in the places responses already take.
 */
function orderResponses(parts: GeminiPart[], positions: ReadonlyMap<GeminiPart, number>): void {
  const slots = parts.flatMap((part, index) => (positions.has(part) ? [index] : []));
  const ordered = slots
    .map((index) => parts[index] as GeminiPart)
    .sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0));
  slots.forEach((slot, index) => {
    parts[slot] = ordered[index] as GeminiPart;
  });
}

function assistantParts(message: ModelAssistantMessage): GeminiPart[] {
  const parts: GeminiPart[] = [];
  for (const reasoning of message.reasoning ?? []) {
    const thoughtSignature = readThoughtSignature(reasoning.providerMetadata);
    if (thoughtSignature !== undefined) parts.push({ text: reasoning.text, thought: true, thoughtSignature });
  }
  if (message.content !== null && !isBlank(message.content)) {
    const thoughtSignature = readThoughtSignature(message.providerMetadata);
    parts.push(
      thoughtSignature === undefined
        ? { text: message.content }
        : { text: message.content, thoughtSignature },
    );
  }
  for (const call of message.tool_calls ?? []) {
    const functionCall = { name: call.function.name, args: parseArguments(call) };
    const thoughtSignature = readToolCallThoughtSignature(message.providerMetadata, call.id);
    parts.push(thoughtSignature === undefined ? { functionCall } : { functionCall, thoughtSignature });
  }
  return parts;
}

// Text that is empty or only whitespace: never sent, as in the Anthropic adapter.
function isBlank(text: string): boolean {
  return text.trim() === '';
}

// Gemini takes the arguments as an object, not the JSON string OpenAI-shaped messages carry.
function parseArguments(call: OpenAIToolCall): Record<string, unknown> {
  const text = call.function.arguments;
  // Some providers send no arguments at all for a call without parameters.
  if (text.trim() === '') return {};
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    args = undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new CairnError(
      'INVALID_MESSAGE',
      `Tool call ${JSON.stringify(call.id)} has arguments that are not a JSON object, which Gemini requires`,
      { details: { toolCallId: call.id, arguments: text.slice(0, 200) } },
    );
  }
  return args as Record<string, unknown>;
}
