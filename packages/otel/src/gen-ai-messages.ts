import {
  type ContentPart,
  type FilePart,
  type FinishReason,
  type ImagePart,
  isMediaPart,
  type MessageContent,
  type ModelAssistantMessage,
  type ModelMessage,
} from '@cairn/core';

/** A message part in the GenAI conventions' JSON shape (`gen_ai.input.messages`). */
export type GenAiPart = Record<string, unknown> & { type: string };

export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finish_reason?: string;
}

/** The conventions' finish reasons: `tool_call` for Cairn's `tool_calls`; the others as they are. */
export const genAiFinishReason = (reason: FinishReason): string =>
  reason === 'tool_calls' ? 'tool_call' : reason;

// A tool call's arguments as sent: JSON when they parse, else the string (a model's broken JSON).
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// Media by reference only: a URL is kept, inline bytes are never copied into a span.
function mediaPart(part: ImagePart | FilePart): GenAiPart {
  const modality = part.type === 'image' ? 'image' : 'file';
  const { source } = part;
  if (source.type === 'url') return { type: 'uri', modality, mime_type: part.mediaType, uri: source.url };
  return { type: 'blob', modality, mime_type: part.mediaType };
}

function contentParts(content: MessageContent | null | undefined): GenAiPart[] {
  if (content === null || content === undefined || content === '') return [];
  if (typeof content === 'string') return [{ type: 'text', content }];
  return content.map((part: ContentPart): GenAiPart => {
    if (part.type === 'text') return { type: 'text', content: part.text };
    return isMediaPart(part) ? mediaPart(part) : { type: part.type };
  });
}

function assistantParts(message: ModelAssistantMessage): GenAiPart[] {
  const parts: GenAiPart[] = [];
  for (const reasoning of message.reasoning ?? []) {
    if (reasoning.text !== '') parts.push({ type: 'reasoning', content: reasoning.text });
  }
  parts.push(...contentParts(message.content));
  for (const call of message.tool_calls ?? []) {
    parts.push({
      type: 'tool_call',
      id: call.id,
      name: call.function.name,
      arguments: parsedArguments(call.function.arguments),
    });
  }
  return parts;
}

/** The request's system prompt (`gen_ai.system_instructions`) and its other messages (`gen_ai.input.messages`). */
export function genAiInput(messages: readonly ModelMessage[]): {
  system: GenAiPart[];
  messages: GenAiMessage[];
} {
  const system: GenAiPart[] = [];
  const input: GenAiMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(...contentParts(message.content as MessageContent));
        break;
      case 'user':
        input.push({ role: 'user', parts: contentParts(message.content) });
        break;
      case 'assistant':
        input.push({ role: 'assistant', parts: assistantParts(message) });
        break;
      case 'tool': {
        const response =
          typeof message.content === 'string' ? message.content : contentParts(message.content);
        input.push({
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: message.tool_call_id, response }],
        });
        break;
      }
    }
  }
  return { system, messages: input };
}

/** The model's answer as `gen_ai.output.messages`. */
export function genAiOutput(message: ModelAssistantMessage, finishReason: FinishReason): GenAiMessage[] {
  return [
    { role: 'assistant', parts: assistantParts(message), finish_reason: genAiFinishReason(finishReason) },
  ];
}
