import {
  acceptsMediaType,
  CairnError,
  type ContentPart,
  contentParts,
  contentText,
  isMediaPart,
  isTextPart,
  type MediaPart,
  type ModelAssistantMessage,
  type ModelMessage,
  type ModelToolMessage,
  type OpenAIToolCall,
} from '@cairn/core';
import { EMPTY_TOOL_ERROR_TEXT } from '@cairn/provider-utils';
import { convertGeminiMediaPart } from './convert-gemini-media-part.js';
import type {
  GeminiBlob,
  GeminiContent,
  GeminiPart,
  GeminiRole,
  GeminiSystemInstruction,
} from './gemini-api-types.js';
import { GEMINI_FUNCTION_RESPONSE_MEDIA_TYPES } from './gemini-input-media.js';
import { readThoughtSignature, readToolCallThoughtSignature } from './gemini-provider-metadata.js';

export interface GeminiPrompt {
  /** Every system message, in order; absent when there is no system text. */
  systemInstruction?: GeminiSystemInstruction;
  contents: GeminiContent[];
}

export interface GeminiContentsOptions {
  /**
   * Nest the images and documents a tool returns in its `functionResponse.parts` (Gemini 3's
   * multimodal function responses). Otherwise, and for media a function response cannot hold (a
   * URL, audio), they follow the turn's function responses as parts of the same `user` turn.
   */
  nestFunctionResponseMedia?: boolean;
}

/**
 * Converts OpenAI-shaped messages to Gemini's request: system messages become the
 * `systemInstruction`, the assistant speaks as `model`, tool calls become `functionCall` parts and
 * tool results `functionResponse` parts of a `user` turn. Consecutive turns of one role are merged
 * (Gemini expects roles to alternate) and blank text is never sent; a failed tool result without
 * content gets a short error text. Images and files become `inlineData` (inline bytes) or
 * `fileData` (a URL) parts; a tool's media goes where `options` says. Thought signatures are
 * replayed from the `gemini` metadata namespace only; reasoning without one (another provider's)
 * is dropped.
 */
export function convertToGeminiContents(
  messages: readonly ModelMessage[],
  { nestFunctionResponseMedia = false }: GeminiContentsOptions = {},
): GeminiPrompt {
  const system: Array<{ text: string }> = [];
  const contents: GeminiContent[] = [];
  // Gemini names a function response by the function's name; the tool message only has the id.
  const toolNames = new Map<string, string>();
  // Without ids Gemini pairs responses with calls by position: each response's call position.
  const callPositions = new Map<string, number>();
  const responsePositions = new Map<GeminiPart, number>();
  // Tool media that goes beside the function responses, after the last of them.
  let toolMedia: GeminiPart[] = [];

  const append = (role: GeminiRole, parts: GeminiPart[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  const flushToolMedia = (): void => {
    append('user', toolMedia);
    toolMedia = [];
  };

  messages.forEach((message, index) => {
    if (message.role !== 'tool') flushToolMedia();
    switch (message.role) {
      case 'system':
        if (!isBlank(message.content)) system.push({ text: message.content });
        break;
      case 'user':
        append(
          'user',
          contentParts(message.content).flatMap((part, partIndex) =>
            isTextPart(part)
              ? isBlank(part.text)
                ? []
                : [{ text: part.text }]
              : [convertGeminiMediaPart(mediaPart(part, index, partIndex), where(index, partIndex))],
          ),
        );
        break;
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
        const { part, beside } = functionResponse(message, name, index, nestFunctionResponseMedia);
        responsePositions.set(part, callPositions.get(message.tool_call_id) ?? 0);
        append('user', [part]);
        toolMedia.push(...beside);
        break;
      }
    }
  });
  flushToolMedia();
  for (const content of contents)
    if (content.role === 'user') orderResponses(content.parts, responsePositions);

  return system.length > 0 ? { systemInstruction: { parts: system }, contents } : { contents };
}

/**
 * A tool result as a `functionResponse` (its text as `content`, or `error` when it failed) and
 * the media that goes beside it: all of it, or what a nested function response cannot hold.
 */
function functionResponse(
  message: ModelToolMessage,
  name: string,
  index: number,
  nestMedia: boolean,
): { part: GeminiPart; beside: GeminiPart[] } {
  const content = contentText(message.content);
  const response = message.isError
    ? { error: isBlank(content) ? EMPTY_TOOL_ERROR_TEXT : content }
    : { content };
  const nested: Array<{ inlineData: GeminiBlob }> = [];
  const beside: GeminiPart[] = [];
  contentParts(message.content).forEach((each, partIndex) => {
    if (isTextPart(each)) return;
    const media = convertGeminiMediaPart(mediaPart(each, index, partIndex), where(index, partIndex));
    const nestable =
      nestMedia &&
      media.inlineData !== undefined &&
      acceptsMediaType(GEMINI_FUNCTION_RESPONSE_MEDIA_TYPES, media.inlineData.mimeType);
    if (nestable && media.inlineData !== undefined) nested.push({ inlineData: media.inlineData });
    else beside.push(media);
  });
  const part: GeminiPart = {
    functionResponse: nested.length > 0 ? { name, response, parts: nested } : { name, response },
  };
  return { part, beside };
}

const where = (index: number, partIndex: number) => `Message ${index} part ${partIndex}`;

/** The part as an image or file, or `UNSUPPORTED_CONTENT` for a type Gemini has no field for. */
function mediaPart(part: ContentPart, index: number, partIndex: number): MediaPart {
  if (isMediaPart(part)) return part;
  throw new CairnError(
    'UNSUPPORTED_CONTENT',
    `${where(index, partIndex)}: gemini cannot take a ${part.type} part`,
    { details: { provider: 'gemini', messageIndex: index, partType: part.type } },
  );
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
