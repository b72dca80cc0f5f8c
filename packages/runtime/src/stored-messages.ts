import {
  type CairnError,
  type ConversationMessage,
  type ConversationMode,
  compactStructuredResult,
  type JsonValue,
  type MessageContent,
} from '@cairn/core';
import type { LoopAssistantMessage, LoopToolMessage } from '@cairn/loop';

/** The fields every message of a turn carries: which session wrote it. */
export interface SessionFields {
  mode: ConversationMode;
  runId?: string;
  agentId?: string;
}

/** Marks a message as written by this session (its mode, run and agent). */
export const withSession = (message: ConversationMessage, session: SessionFields): ConversationMessage => {
  message.mode = session.mode;
  if (session.runId !== undefined) message.runId = session.runId;
  if (session.agentId !== undefined) message.agentId = session.agentId;
  return message;
};

export function storedUserMessage(
  id: string,
  createdAt: string,
  content: MessageContent,
  session: SessionFields,
): ConversationMessage {
  return withSession({ id, role: 'user', createdAt, content }, session);
}

/** The loop's assistant message as the log keeps it: calls, reasoning and replay data included. */
export function storedAssistantMessage(
  message: LoopAssistantMessage,
  session: SessionFields,
): ConversationMessage {
  const stored: ConversationMessage = {
    id: message.id,
    role: 'assistant',
    createdAt: message.createdAt,
    content: message.content ?? null,
  };
  if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
    stored.tool_calls = message.tool_calls;
    stored.partType = 'tool_call';
  }
  if (message.reasoning !== undefined && message.reasoning.length > 0) stored.reasoning = message.reasoning;
  if (message.providerMetadata !== undefined) stored.providerMetadata = message.providerMetadata;
  // A cut-off answer has no usage of its own (the loop gives it zeros).
  if (message.interrupted) stored.interrupted = true;
  else stored.usage = message.usage;
  return withSession(stored, session);
}

// A tool's structured result is whatever it returned: only what JSON can hold is kept, within the
// output budget, so the store's validation never refuses the message.
function storableStructured(structured: unknown): JsonValue | undefined {
  if (structured === undefined) return undefined;
  try {
    const text = JSON.stringify(structured);
    return text === undefined ? undefined : compactStructuredResult(JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

/** The loop's tool result as the log keeps it (a big output is offloaded by the store on append). */
export function storedToolMessage(message: LoopToolMessage, session: SessionFields): ConversationMessage {
  const stored: ConversationMessage = {
    id: message.id,
    role: 'tool',
    createdAt: message.createdAt,
    tool_call_id: message.tool_call_id,
    content: message.content,
    isError: message.isError,
    partType: 'tool_result',
    toolName: message.toolName,
    duration: message.duration,
  };
  const structured = storableStructured(message.structured);
  if (structured !== undefined) stored.structuredResult = structured;
  if (message.interrupted) stored.interrupted = true;
  return withSession(stored, session);
}

/** A failure, kept as an assistant message so the user can say "continue". */
export function storedErrorMessage(
  id: string,
  createdAt: string,
  error: CairnError,
  session: SessionFields,
): ConversationMessage {
  return withSession(
    { id, role: 'assistant', createdAt, content: error.message, partType: 'error', errorCode: error.code },
    session,
  );
}
