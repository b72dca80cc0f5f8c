import {
  CairnError,
  type ContentPart,
  contentText,
  type ModelAssistantMessage,
  type ModelMessage,
} from '@cairn/core';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type {
  ResponseFunctionCallOutputItem,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { userContent } from './convert-to-openai-messages.js';
import {
  type OpenAIResponsesItemRef,
  readResponsesMessageMetadata,
  readResponsesReasoningMetadata,
} from './openai-responses-metadata.js';

/**
 * The messages as Responses API input items: system and user messages as messages (user parts as
 * `input_text`, `input_image` and `input_file`, named as the Chat adapter names them), an
 * assistant message as its output items again, a tool result as a `function_call_output` (its
 * images and files inside the output, which the Responses API takes).
 *
 * An assistant message this adapter produced is replayed item for item in the order recorded in
 * `providerMetadata.openai.items`: each reasoning item (`rs_…`, with its `encrypted_content` and
 * summary) right before the message or function call that followed it, with their ids. A reasoning
 * item whose following item is gone (its tool call removed, the text edited away) is dropped, as the
 * API refuses it; so is the id of an item whose reasoning item is gone (the API refuses that too). Any other assistant message (another provider's, Chat Completions') becomes a
 * plain assistant message and function calls; reasoning without OpenAI metadata is dropped.
 */
export function convertToOpenAIResponsesInput(messages: readonly ModelMessage[]): ResponseInputItem[] {
  return messages.flatMap((message, index): ResponseInputItem[] => {
    switch (message.role) {
      case 'system':
        return [{ role: 'system', content: message.content }];
      case 'user':
        return [
          {
            role: 'user',
            content:
              typeof message.content === 'string'
                ? message.content
                : responsesContent(userContent(message.content, index)),
          },
        ];
      case 'assistant':
        return assistantItems(message);
      case 'tool': {
        if (!message.tool_call_id) throw invalidMessage(index, 'tool_call_id', 'has no tool_call_id');
        return [
          {
            type: 'function_call_output',
            call_id: message.tool_call_id,
            output: toolOutput(message.content, index),
          },
        ];
      }
      default: {
        const role: unknown = (message as { role: unknown }).role;
        throw invalidMessage(index, 'role', `has an unknown role ${JSON.stringify(role)}`);
      }
    }
  });
}

/** Chat Completions user parts (core's conversion, files named) as Responses input content. */
function responsesContent(parts: readonly ChatCompletionContentPart[]): ResponseInputContent[] {
  return parts.map((part): ResponseInputContent => {
    switch (part.type) {
      case 'text':
        return { type: 'input_text', text: part.text };
      case 'image_url':
        return {
          type: 'input_image',
          image_url: part.image_url.url,
          detail: part.image_url.detail ?? 'auto',
        };
      case 'file':
        return {
          type: 'input_file',
          ...(part.file.filename === undefined ? {} : { filename: part.file.filename }),
          ...(part.file.file_data === undefined ? {} : { file_data: part.file.file_data }),
        };
      default:
        throw new CairnError('UNSUPPORTED_CONTENT', `openai: a ${part.type} part has no Responses form`, {
          details: { provider: 'openai' },
        });
    }
  });
}

function toolOutput(
  content: string | ContentPart[],
  index: number,
): string | ResponseFunctionCallOutputItem[] {
  if (typeof content === 'string' || content.every((part) => part.type === 'text')) {
    return contentText(content);
  }
  return responsesContent(userContent(content, index)) as ResponseFunctionCallOutputItem[];
}

type ReasoningItem = Extract<ResponseInputItem, { type: 'reasoning' }>;

function assistantItems(message: ModelAssistantMessage): ResponseInputItem[] {
  const text = message.content ?? '';
  const calls = message.tool_calls ?? [];
  const plainCall = (call: (typeof calls)[number], id?: string): ResponseInputItem => ({
    type: 'function_call',
    ...(id === undefined ? {} : { id }),
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  });
  const metadata = readResponsesMessageMetadata(message.providerMetadata);
  if (metadata === undefined) {
    return [
      ...(text === '' ? [] : [{ role: 'assistant' as const, content: text }]),
      ...calls.map((call) => plainCall(call)),
    ];
  }
  const reasoning = reasoningItems(message);
  const firstMessage = metadata.items.find((item) => item.type === 'message');
  const itemFor = (ref: OpenAIResponsesItemRef): ResponseInputItem | undefined => {
    if (ref.type === 'reasoning') return reasoning.get(ref.id);
    if (ref.type === 'function_call') {
      const call = calls.find((each) => each.id === ref.callId);
      return call === undefined ? undefined : plainCall(call, ref.id);
    }
    // All the text is the message's: it goes where the first message item stood.
    if (ref !== firstMessage || text === '') return undefined;
    return {
      type: 'message',
      id: ref.id,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
  };
  const items = metadata.items.map(itemFor);
  // A reasoning item is sent only right before the message or call it preceded, as the API demands.
  metadata.items.forEach((ref, index) => {
    const next = metadata.items[index + 1];
    const followed = next !== undefined && next.type !== 'reasoning' && items[index + 1] !== undefined;
    if (ref.type === 'reasoning' && !followed) items[index] = undefined;
  });
  // An item that followed a reasoning item no longer sent loses its id too: the API refuses an
  // output item by id without the reasoning item it required.
  metadata.items.forEach((ref, index) => {
    const item = items[index];
    if (
      ref.type !== 'reasoning' &&
      metadata.items[index - 1]?.type === 'reasoning' &&
      items[index - 1] === undefined &&
      item !== undefined
    ) {
      delete (item as { id?: string }).id;
    }
  });
  const replayed = items.filter((item): item is ResponseInputItem => item !== undefined);
  // Text or calls the recorded items do not cover (added after the answer) go after them.
  if (firstMessage === undefined && text !== '') replayed.push({ role: 'assistant', content: text });
  const recordedCalls = new Set(
    metadata.items.flatMap((ref) => (ref.type === 'function_call' ? [ref.callId] : [])),
  );
  for (const call of calls) if (!recordedCalls.has(call.id)) replayed.push(plainCall(call));
  return replayed;
}

/** The message's OpenAI reasoning items by id, each summary part in order. */
function reasoningItems(message: ModelAssistantMessage): Map<string, ReasoningItem> {
  const items = new Map<string, ReasoningItem>();
  for (const part of message.reasoning ?? []) {
    const metadata = readResponsesReasoningMetadata(part);
    if (metadata === undefined) continue;
    let item = items.get(metadata.itemId);
    if (item === undefined) {
      item = { type: 'reasoning', id: metadata.itemId, summary: [] };
      items.set(metadata.itemId, item);
    }
    if (metadata.encryptedContent !== undefined) item.encrypted_content = metadata.encryptedContent;
    if (part.text !== '') item.summary.push({ type: 'summary_text', text: part.text });
  }
  return items;
}

function invalidMessage(index: number, field: string, problem: string): CairnError {
  return new CairnError('INVALID_MESSAGE', `Message ${index} ${problem}`, {
    details: { path: `messages.${index}.${field}` },
  });
}
