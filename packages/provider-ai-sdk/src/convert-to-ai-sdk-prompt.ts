import {
  type ContentPart,
  contentText,
  hasNonTextParts,
  isMediaPart,
  type MediaPart,
  type ModelAssistantMessage,
  type ModelMessage,
  type ModelToolMessage,
  type ProviderMetadata,
} from '@cairn/core';
import { EMPTY_TOOL_ERROR_TEXT } from '@cairn/provider-utils';
import { base64Of, toAiSdkFileData } from './ai-sdk-file-data.js';
import type { SpecificationVersion } from './ai-sdk-language-model.js';
import { ownReplayData, textReplayData, toolCallReplayData } from './ai-sdk-replay-metadata.js';
import type {
  AiSdkJsonValue,
  AiSdkPrompt,
  AiSdkPromptMessage,
  AiSdkPromptPart,
  AiSdkProviderOptions,
} from './ai-sdk-types.js';

// Built in the shape the three versions share, with the parts where they differ (file data, tool
// result content) made per version.
type Part = AiSdkPromptPart;
type Message = AiSdkPromptMessage;

/**
 * Converts Cairn's messages to the prompt of an AI SDK language model of `version`: system text
 * stays a system message; user text, images and files become `text` and `file` parts; an
 * assistant's reasoning, text and tool calls become `reasoning`, `text` and `tool-call` parts (the
 * arguments parsed from their JSON string); consecutive tool results become one `tool` message of
 * `tool-result` parts, a failed one as `error-text`. Reasoning and per-call data are replayed only
 * when this adapter (`provider`, its namespace in `providerMetadata`) wrote them.
 */
export function convertToAiSdkPrompt(
  messages: readonly ModelMessage[],
  { version, provider }: { version: SpecificationVersion; provider: string },
): AiSdkPrompt {
  const prompt: Message[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: userParts(message.content, version) });
        break;
      case 'assistant':
        for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.function.name);
        prompt.push({ role: 'assistant', content: assistantParts(message, provider) });
        break;
      case 'tool': {
        const part = toolResultPart(message, toolNames.get(message.tool_call_id) ?? '', version);
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function userParts(content: string | ContentPart[], version: SpecificationVersion): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) =>
    isMediaPart(part) ? filePart(part, version) : { type: 'text', text: contentText([part]) },
  );
}

function filePart(part: MediaPart, version: SpecificationVersion): Part {
  return {
    type: 'file',
    mediaType: part.mediaType,
    data: toAiSdkFileData(part.source, version),
    ...(part.fileName === undefined ? {} : { filename: part.fileName }),
  };
}

function assistantParts(message: ModelAssistantMessage, provider: string): Part[] {
  const parts: Part[] = [];
  for (const reasoning of message.reasoning ?? []) {
    // Reasoning another provider wrote (or none wrote) is not this model's to replay.
    const own = ownReplayData(reasoning.providerMetadata, provider);
    if (own !== undefined) parts.push(withOptions({ type: 'reasoning', text: reasoning.text }, own));
  }
  if (message.content !== null && message.content !== '') {
    parts.push(
      withOptions(
        { type: 'text', text: message.content },
        textReplayData(message.providerMetadata, provider),
      ),
    );
  }
  for (const call of message.tool_calls ?? []) {
    const part: Part = {
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.function.name,
      input: parseArguments(call.function.arguments),
    };
    parts.push(withOptions(part, toolCallReplayData(message.providerMetadata, provider, call.id)));
  }
  return parts;
}

function withOptions(part: Part, options: ProviderMetadata | undefined): Part {
  return options === undefined || Object.keys(options).length === 0
    ? part
    : { ...part, providerOptions: options as AiSdkProviderOptions };
}

// Arguments are kept as the model wrote them; one that is not JSON goes back as that text.
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
}

function toolResultPart(message: ModelToolMessage, toolName: string, version: SpecificationVersion): Part {
  return {
    type: 'tool-result',
    toolCallId: message.tool_call_id,
    toolName,
    output: toolResultOutput(message, version),
  };
}

function toolResultOutput(message: ModelToolMessage, version: SpecificationVersion): Record<string, unknown> {
  const { content } = message;
  // The AI SDK has no failed result with images: a failure keeps its text (placeholders for media).
  if (message.isError === true) {
    const text = contentText(content, { placeholders: true });
    return { type: 'error-text', value: text.trim() === '' ? EMPTY_TOOL_ERROR_TEXT : text };
  }
  if (!hasNonTextParts(content)) return { type: 'text', value: contentText(content) };
  const parts = typeof content === 'string' ? [] : content;
  return {
    type: 'content',
    value: parts.map((part) =>
      isMediaPart(part)
        ? toolResultMedia(part, version, message.tool_call_id)
        : { type: 'text', text: contentText([part]) },
    ),
  };
}

/** An image or file in a tool result, in each version's own shape. */
function toolResultMedia(
  part: MediaPart,
  version: SpecificationVersion,
  callId: string,
): Record<string, AiSdkJsonValue> {
  const what = `tool result ${callId}`;
  const filename = part.fileName === undefined ? {} : { filename: part.fileName };
  if (version === 'v2') return { type: 'media', data: base64Of(part, what), mediaType: part.mediaType };
  if (version === 'v4') {
    return {
      type: 'file',
      data: toAiSdkFileData(part.source, version) as unknown as AiSdkJsonValue,
      mediaType: part.mediaType,
      ...filename,
    };
  }
  const image = part.type === 'image';
  if (part.source.type === 'url') return { type: image ? 'image-url' : 'file-url', url: part.source.url };
  return {
    type: image ? 'image-data' : 'file-data',
    data: base64Of(part, what),
    mediaType: part.mediaType,
    ...filename,
  };
}
