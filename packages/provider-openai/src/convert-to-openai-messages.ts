import {
  CairnError,
  type ContentPart,
  contentText,
  isMediaPart,
  isTextPart,
  type ModelMessage,
  type OpenAIToolCall,
  toOpenAIUserContent,
} from '@cairn/core';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

function copyToolCall(call: OpenAIToolCall): OpenAIToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  };
}

/** The images and files of one tool result, waiting for the end of the run of tool messages. */
interface ToolMedia {
  toolCallId: string;
  index: number;
  parts: ContentPart[];
}

/**
 * The messages as the Chat Completions API takes them: core's `toOpenAIMessage` shape, but for
 * tool results with media (below).
 * Reasoning, `providerMetadata` and `isError` are dropped — Chat Completions has no field for them,
 * and compatible servers (DeepSeek, for one) reject reasoning sent back. An assistant message with
 * tool calls and no text gets `content: null`, never `''`. User parts become `image_url` and `file`
 * parts (core's `toOpenAIUserContent`).
 *
 * Chat Completions tool messages take text only, so a tool result with images or files is split:
 * its text (media shown as `[image: name]` where they stood) stays in the tool message, and its
 * media go, in order, into one `user` message right after the run of tool messages, each result's
 * introduced by a text part naming its tool call. Nothing may come between an assistant's tool
 * calls and their results, so the media cannot go earlier.
 */
export function convertToOpenAIMessages(messages: readonly ModelMessage[]): ChatCompletionMessageParam[] {
  const converted: ChatCompletionMessageParam[] = [];
  let pendingMedia: ToolMedia[] = [];
  const flushMedia = () => {
    if (pendingMedia.length === 0) return;
    converted.push({ role: 'user', content: toolMediaContent(pendingMedia) });
    pendingMedia = [];
  };
  messages.forEach((message, index) => {
    if (message.role !== 'tool') flushMedia();
    switch (message.role) {
      case 'system':
        converted.push({ role: 'system', content: message.content });
        return;
      case 'user':
        converted.push({
          role: 'user',
          // OpenAI refuses an empty parts array; no parts is no text.
          content:
            typeof message.content === 'string'
              ? message.content
              : message.content.length === 0
                ? ''
                : userContent(message.content, index),
        });
        return;
      case 'assistant': {
        const toolCalls = message.tool_calls?.map(copyToolCall) ?? [];
        converted.push(
          toolCalls.length > 0
            ? { role: 'assistant', content: message.content || null, tool_calls: toolCalls }
            : { role: 'assistant', content: message.content ?? '' },
        );
        return;
      }
      case 'tool': {
        if (!message.tool_call_id) throw invalidMessage(index, 'tool_call_id', 'has no tool_call_id');
        const media =
          typeof message.content === 'string' ? [] : message.content.filter((p) => !isTextPart(p));
        if (media.length > 0) pendingMedia.push({ toolCallId: message.tool_call_id, index, parts: media });
        converted.push({
          role: 'tool',
          content: contentText(message.content, { placeholders: true }),
          tool_call_id: message.tool_call_id,
        });
        return;
      }
      default: {
        const role: unknown = (message as { role: unknown }).role;
        throw invalidMessage(index, 'role', `has an unknown role ${JSON.stringify(role)}`);
      }
    }
  });
  flushMedia();
  return converted;
}

function toolMediaContent(results: readonly ToolMedia[]): ChatCompletionContentPart[] {
  return results.flatMap(({ toolCallId, index, parts }) => [
    { type: 'text' as const, text: `Images and files returned by tool call ${toolCallId}:` },
    ...userContent(parts, index),
  ]);
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
};

/**
 * Core's `toOpenAIUserContent`, every file named: OpenAI refuses `file_data` without a `filename`,
 * so a file part without `fileName` is sent as `file-<message>-<part>.<subtype>` (`file-0-1.pdf`).
 */
export function userContent(parts: readonly ContentPart[], index: number): ChatCompletionContentPart[] {
  return toOpenAIUserContent(parts, String(index)).map((part, partIndex) => {
    if (part.type !== 'file' || part.file.filename !== undefined) return part;
    const source = parts[partIndex];
    const mediaType = source !== undefined && isMediaPart(source) ? source.mediaType : '';
    const extension =
      EXTENSIONS[mediaType] ?? (mediaType.split('/')[1] ?? '').replace(/[^a-z0-9]/g, '').slice(0, 10);
    const filename = `file-${index}-${partIndex}${extension ? `.${extension}` : ''}`;
    return { type: 'file', file: { ...part.file, filename } };
  }) as ChatCompletionContentPart[];
}

function invalidMessage(index: number, field: string, problem: string): CairnError {
  return new CairnError('INVALID_MESSAGE', `Message ${index} ${problem}`, {
    details: { path: `messages.${index}.${field}` },
  });
}
