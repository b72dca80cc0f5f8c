import type { ConversationMessage, OpenAIToolCall } from '@cairn/core';

// Builders for log messages in tests: `log(...)` numbers them (id `m<seq>`, `seq`) in order.

type Draft = Omit<ConversationMessage, 'id' | 'createdAt'> & { id?: string; createdAt?: string };

export const CREATED_AT = '2025-01-24T10:00:00.000Z';

/** The drafts as a stored log: ids `m1`, `m2`, … (unless given) and seqs 1, 2, …. */
export function log(...drafts: Draft[]): ConversationMessage[] {
  return drafts.map((draft, index) => ({
    ...draft,
    id: draft.id ?? `m${index + 1}`,
    createdAt: draft.createdAt ?? CREATED_AT,
    seq: draft.seq ?? index + 1,
  }));
}

export const user = (content: string, extra: Partial<Draft> = {}): Draft => ({
  role: 'user',
  content,
  ...extra,
});

export const assistant = (content: string, extra: Partial<Draft> = {}): Draft => ({
  role: 'assistant',
  content,
  ...extra,
});

export const toolCall = (id: string, name = 'read_file', args = '{}'): OpenAIToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

/** An assistant message calling tools with these ids. */
export const calls = (...ids: string[]): Draft => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => toolCall(id)),
  partType: 'tool_call',
});

export const result = (
  toolCallId: string,
  content = `result of ${toolCallId}`,
  extra: Partial<Draft> = {},
): Draft => ({
  role: 'tool',
  tool_call_id: toolCallId,
  content,
  partType: 'tool_result',
  toolName: 'read_file',
  ...extra,
});

export const system = (content: string): Draft => ({ role: 'system', content });

/** A compaction record summarising seqs `fromSeq`..`toSeq`. */
export const compaction = (fromSeq: number, toSeq: number, content: string): Draft => ({
  role: 'system',
  partType: 'compaction',
  content,
  compaction: { fromSeq, toSeq },
});
