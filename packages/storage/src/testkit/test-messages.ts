import { type ConversationMessage, titleRecord } from '@cairn/core';

const CREATED_AT = '2026-01-01T00:00:00.000Z';

export function userMessage(id: string, content: string): ConversationMessage {
  return { id, role: 'user', content, createdAt: CREATED_AT };
}

/** A rename: the conversation's title record. */
export function titleMessage(id: string, title: string): ConversationMessage {
  return titleRecord({ id, createdAt: CREATED_AT, title });
}

export function assistantText(id: string, content: string): ConversationMessage {
  return { id, role: 'assistant', content, createdAt: CREATED_AT };
}

/** An assistant message calling one tool per id in `callIds`. */
export function assistantToolCalls(id: string, callIds: readonly string[]): ConversationMessage {
  return {
    id,
    role: 'assistant',
    content: null,
    createdAt: CREATED_AT,
    tool_calls: callIds.map((callId) => ({
      id: callId,
      type: 'function' as const,
      function: { name: 'read_file', arguments: JSON.stringify({ path: `${callId}.txt` }) },
    })),
  };
}

export function toolResult(id: string, callId: string, content: string): ConversationMessage {
  return { id, role: 'tool', tool_call_id: callId, content, createdAt: CREATED_AT, toolName: 'read_file' };
}

/** An assistant message with `n` tool calls followed by their results: one atomic append. */
export function toolTurn(prefix: string, n: number): ConversationMessage[] {
  const callIds = Array.from({ length: n }, (_, index) => `${prefix}-call-${index}`);
  return [
    assistantToolCalls(`${prefix}-a`, callIds),
    ...callIds.map((callId, index) =>
      toolResult(`${prefix}-t${index}`, callId, `result ${index} of ${prefix}`),
    ),
  ];
}

/** The message without its store-assigned `seq`, for comparing what was sent with what was stored. */
export function withoutSeq(message: ConversationMessage): ConversationMessage {
  const { seq: _seq, ...rest } = message;
  return rest;
}

/** The messages of batch `n` of a crash worker: even batches one message, odd ones a tool turn. */
export function crashBatch(writer: string, n: number): ConversationMessage[] {
  return n % 2 === 0 ? [userMessage(`${writer}-${n}`, `batch ${n}`)] : toolTurn(`${writer}-${n}`, 2);
}
