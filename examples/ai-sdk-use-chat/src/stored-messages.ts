import type { DynamicToolUIPart } from 'ai';
import type { CairnUIMessage } from './chat-message.ts';

/** The fields of a stored Cairn message (`GET /v1/conversations/:id/messages`) this page shows. */
export interface StoredMessage {
  id: string;
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | Array<{ type: string; text?: string }> | null;
  reasoning?: Array<{ text?: string }>;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  isError?: boolean;
  structuredResult?: unknown;
  interrupted?: boolean;
  includeInContext?: boolean;
  /** `error`: the server's note of a failed or aborted turn, beside the messages of the turn. */
  partType?: string;
}

/**
 * The conversation so far, as `useChat`'s initial messages: after a reload, the answers already
 * stored show again, and `resume` adds the one still running. A new conversation is empty (404).
 */
export async function loadStoredMessages(conversationId: string): Promise<CairnUIMessage[]> {
  const response = await fetch(`/v1/conversations/${encodeURIComponent(conversationId)}/messages`);
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`loading the conversation failed: HTTP ${response.status}`);
  const { messages } = (await response.json()) as { messages: StoredMessage[] };
  return toUIMessages(settledPrefix(messages));
}

/**
 * The stored messages to show: all of them, or, when the last turn has no final answer yet, up to its
 * user message — the tool steps of an answer still running come back whole in the resumed stream,
 * and would show twice otherwise.
 */
export function settledPrefix(messages: StoredMessage[]): StoredMessage[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const last = messages.at(-1);
  const answered = last !== undefined && last.role === 'assistant' && (last.tool_calls?.length ?? 0) === 0;
  return answered || lastUser === -1 ? messages : messages.slice(0, lastUser + 1);
}

function textOf(content: StoredMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Stored messages as UI messages: a user message each, and one assistant message per answer (its
 * steps' reasoning, text and tool calls, each call with its stored result), as the stream built it.
 */
export function toUIMessages(messages: StoredMessage[]): CairnUIMessage[] {
  const ui: CairnUIMessage[] = [];
  const calls = new Map<string, DynamicToolUIPart>();
  let answer: CairnUIMessage | undefined;
  for (const message of messages) {
    // A failed turn's note is shown live as the chat's error, with Retry; not again as an answer.
    if (message.partType === 'error') continue;
    if (message.role === 'user') {
      answer = undefined;
      ui.push({ id: message.id, role: 'user', parts: [{ type: 'text', text: textOf(message.content) }] });
      continue;
    }
    if (message.role === 'assistant') {
      if (answer === undefined) {
        answer = { id: message.id, role: 'assistant', parts: [] };
        ui.push(answer);
      }
      for (const block of message.reasoning ?? []) {
        if (block.text) answer.parts.push({ type: 'reasoning', text: block.text, state: 'done' });
      }
      const text = textOf(message.content);
      if (text !== '') answer.parts.push({ type: 'text', text, state: 'done' });
      for (const call of message.tool_calls ?? []) {
        const part: DynamicToolUIPart = {
          type: 'dynamic-tool',
          toolName: call.function.name,
          toolCallId: call.id,
          state: 'input-available',
          input: parseArguments(call.function.arguments),
        };
        calls.set(call.id, part);
        answer.parts.push(part);
      }
      continue;
    }
    if (message.role === 'tool' && message.tool_call_id !== undefined) {
      const call = calls.get(message.tool_call_id);
      if (call === undefined || answer === undefined) continue;
      const { toolName, toolCallId, input } = call;
      answer.parts[answer.parts.indexOf(call)] = message.isError
        ? {
            type: 'dynamic-tool',
            toolName,
            toolCallId,
            input,
            state: 'output-error',
            errorText: textOf(message.content),
          }
        : {
            type: 'dynamic-tool',
            toolName,
            toolCallId,
            input,
            state: 'output-available',
            output: message.structuredResult ?? textOf(message.content),
          };
    }
  }
  return ui;
}
