/** A tool call of an assistant message, as the Chat Completions request carries it. */
interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a Chat Completions request, read leniently: the demo must answer any body. */
export interface ChatMessage {
  role: string;
  /** The text; a content-parts array is joined, anything else is ''. */
  content: string;
  toolCalls: ChatToolCall[];
  toolCallId?: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** The names of the tools the request offers. */
  toolNames: ReadonlySet<string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function toolCallOf(call: unknown): ChatToolCall[] {
  if (!isRecord(call) || !isRecord(call.function)) return [];
  return [
    {
      id: stringOr(call.id, ''),
      name: stringOr(call.function.name, ''),
      arguments: stringOr(call.function.arguments, ''),
    },
  ];
}

function messageOf(message: unknown): ChatMessage[] {
  if (!isRecord(message)) return [];
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.flatMap(toolCallOf) : [];
  return [
    {
      role: stringOr(message.role, ''),
      content: textOf(message.content),
      toolCalls,
      ...(typeof message.tool_call_id === 'string' ? { toolCallId: message.tool_call_id } : {}),
    },
  ];
}

function toolNameOf(tool: unknown): string[] {
  return isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string'
    ? [tool.function.name]
    : [];
}

/** The messages and offered tools of an OpenAI Chat Completions request body; malformed parts are skipped. */
export function readChatRequest(body: unknown): ChatRequest {
  if (!isRecord(body)) return { messages: [], toolNames: new Set() };
  return {
    messages: Array.isArray(body.messages) ? body.messages.flatMap(messageOf) : [],
    toolNames: new Set(Array.isArray(body.tools) ? body.tools.flatMap(toolNameOf) : []),
  };
}
