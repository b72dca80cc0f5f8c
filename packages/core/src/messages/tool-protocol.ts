/** The fields the tool-call protocol is about; `ModelMessage`, `OpenAIChatMessage` and `ConversationMessage` all have them. */
export interface ProtocolMessage {
  role: string;
  tool_calls?: readonly { id: string }[] | undefined;
  tool_call_id?: string | undefined;
}

/** Where and how a message list breaks the tool-call protocol. */
export interface ToolProtocolIssue {
  index: number;
  problem: string;
}

/**
 * Where `messages` break the tool-call protocol every provider enforces: the `tool` messages right
 * after an assistant message answer its calls, each call exactly once; a `tool` message anywhere
 * else, or answering another id, is an orphan. Empty when the list is valid.
 */
export function toolProtocolIssues(messages: readonly ProtocolMessage[]): ToolProtocolIssue[] {
  const issues: ToolProtocolIssue[] = [];
  let open: Set<string> | undefined;
  let openedAt = -1;
  const closeCalls = () => {
    if (open !== undefined && open.size > 0) {
      issues.push({ index: openedAt, problem: `calls without a result: ${[...open].join(', ')}` });
    }
    open = undefined;
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (open === undefined || id === undefined || !open.delete(id)) {
        issues.push({ index, problem: `a tool result for ${id ?? '(no id)'} with no call waiting for it` });
      }
      return;
    }
    closeCalls();
    if (message.role === 'assistant' && message.tool_calls !== undefined && message.tool_calls.length > 0) {
      open = new Set(message.tool_calls.map((call) => call.id));
      openedAt = index;
    }
  });
  closeCalls();
  return issues;
}
