import type { DynamicToolUIPart } from 'ai';
import type { CairnUIMessage } from './chat-message.ts';
import {
  awaitingApprovalPart,
  calledPart,
  decidedPart,
  resultPart,
  type StoredApproval,
} from './stored-tool-parts.ts';

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
  /** On the log's approval records (`role: 'system'`): a call's approval request, or its decision. */
  approval?: StoredApproval;
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
 * The stored messages to show: all of them when the last turn is over — it has its final answer, or it
 * waits for an approval — else what the resumed stream does not bring again (shown twice otherwise):
 * up to the turn's user message, or, for a turn going on after answered approvals, up to its last
 * decision: that answer is the one the resumed stream (the decided calls, then what follows) replaces.
 */
export function settledPrefix(messages: StoredMessage[]): StoredMessage[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  if (lastUser === -1) return messages;
  const turn = messages.slice(lastUser + 1);
  const last = turn.at(-1);
  const answered = last?.role === 'assistant' && (last.tool_calls?.length ?? 0) === 0;
  if (answered || waitsForApproval(turn)) return messages;
  const lastDecision = messages.findLastIndex((message) => message.approval?.kind === 'decision');
  return messages.slice(0, Math.max(lastUser, lastDecision) + 1);
}

/** Whether the turn asked for an approval not decided yet: it ended waiting, nothing to resume. */
function waitsForApproval(turn: StoredMessage[]): boolean {
  const decided = new Set(
    turn.map(({ approval }) => (approval?.kind === 'decision' ? approval.requestId : undefined)),
  );
  return turn.some((message) => message.approval?.kind === 'request' && !decided.has(message.id));
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
 * steps' reasoning, text and tool calls, each call with its stored approval and result), as the
 * stream built it.
 */
export function toUIMessages(messages: StoredMessage[]): CairnUIMessage[] {
  const ui: CairnUIMessage[] = [];
  let answer: CairnUIMessage | undefined;
  // The current answer's calls by id, and its approval requests' calls by request id.
  const calls = new Map<string, DynamicToolUIPart>();
  const requests = new Map<string, string>();
  const update = (toolCallId: string | undefined, next: (part: DynamicToolUIPart) => DynamicToolUIPart) => {
    const part = toolCallId === undefined ? undefined : calls.get(toolCallId);
    if (part === undefined || answer === undefined) return;
    const updated = next(part);
    answer.parts[answer.parts.indexOf(part)] = updated;
    calls.set(part.toolCallId, updated);
  };
  for (const message of messages) {
    // A failed turn's note is shown live as the chat's error, with Retry; not again as an answer.
    if (message.partType === 'error') continue;
    if (message.role === 'user') {
      answer = undefined;
      calls.clear();
      requests.clear();
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
        const part = calledPart(call.function.name, call.id, parseArguments(call.function.arguments));
        calls.set(call.id, part);
        answer.parts.push(part);
      }
      continue;
    }
    const { approval } = message;
    if (approval?.kind === 'request') {
      requests.set(message.id, approval.toolCallId);
      update(approval.toolCallId, (part) => awaitingApprovalPart(part, message.id));
    } else if (approval?.kind === 'decision') {
      update(requests.get(approval.requestId), (part) => decidedPart(part, approval));
    } else if (message.role === 'tool') {
      const result = {
        text: textOf(message.content),
        isError: message.isError === true,
        ...(message.structuredResult === undefined ? {} : { structuredResult: message.structuredResult }),
      };
      update(message.tool_call_id, (part) => resultPart(part, result));
    }
  }
  return ui;
}
