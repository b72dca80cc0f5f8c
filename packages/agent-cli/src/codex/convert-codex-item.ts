import type { AgentOutput, AgentOutputOf, JsonValue } from '@cairn/core';
import { classifyCodexError } from './codex-error-code.js';
import {
  isRecord,
  type Line,
  optionalString,
  unknownEvent,
  unknownFieldsEvent,
} from './codex-event-factory.js';
import { CODEX_TOOL_NAMES } from './codex-tool-names.js';

/** What the converter remembers between lines. */
export interface CodexSessionState {
  threadId: string | undefined;
  /** The last agent message, reported as the session's final text. */
  lastText: string | undefined;
  /** The message of the last `error` line, which `turn.failed` repeats. */
  lastErrorMessage: string | undefined;
  /** Tool items whose `tool_use` was sent and whose result was not, by item id. */
  readonly openTools: Map<string, string>;
  /** Todo lists: how many versions were sent and the last one, so an unchanged repeat is skipped. */
  readonly todoLists: Map<string, { versions: number; last: string }>;
  /** Makes an item id unique: Codex numbers items from `item_0` in every process, resumed or not. */
  readonly callId: (itemId: string) => string;
}

export type ItemPhase = 'started' | 'updated' | 'completed';

interface ItemContext {
  item: Line;
  id: string;
  phase: ItemPhase;
  timestamp: string;
  state: CodexSessionState;
}

const fields = (...names: string[]): ReadonlySet<string> => new Set(['id', 'type', ...names]);
const ITEM_FIELDS: Record<string, ReadonlySet<string>> = {
  agent_message: fields('text'),
  reasoning: fields('text'),
  command_execution: fields('command', 'aggregated_output', 'exit_code', 'status'),
  file_change: fields('changes', 'status'),
  mcp_tool_call: fields('server', 'tool', 'arguments', 'result', 'error', 'status'),
  web_search: fields('query', 'action'),
  todo_list: fields('items'),
  error: fields('message'),
};

function toolUse(context: ItemContext, toolName: string, input: JsonValue): AgentOutputOf<'tool_use'> {
  context.state.openTools.set(context.id, toolName);
  return {
    type: 'tool_use',
    timestamp: context.timestamp,
    id: context.state.callId(context.id),
    toolName,
    input,
  };
}

/** The `tool_use` once (on the first phase seen), and the `tool_result` when the item completes. */
function toolEvents(
  context: ItemContext,
  toolName: string,
  input: JsonValue,
  result: () => Omit<AgentOutputOf<'tool_result'>, 'type' | 'timestamp' | 'toolUseId' | 'toolName'>,
): AgentOutput[] {
  const { state, id, phase, timestamp } = context;
  const events: AgentOutput[] = [];
  if (!state.openTools.has(id)) events.push(toolUse(context, toolName, input));
  if (phase !== 'completed') return events;
  state.openTools.delete(id);
  events.push({ type: 'tool_result', timestamp, toolUseId: state.callId(id), toolName, ...result() });
  return events;
}

function convertCommand(context: ItemContext): AgentOutput[] {
  const { item } = context;
  const command = optionalString(item.command) ?? '';
  return toolEvents(context, CODEX_TOOL_NAMES.command, { command }, () => {
    const exitCode = typeof item.exit_code === 'number' ? item.exit_code : null;
    const status = optionalString(item.status) ?? 'completed';
    // `failed` is a non-zero exit, `declined` a refused approval: both are the call's failure.
    return {
      output: optionalString(item.aggregated_output) ?? '',
      isError: status !== 'completed',
      structured: { exit_code: exitCode, status },
    };
  });
}

/** `add /abs/hello.txt` lines, one per change, as a readable result of the patch. */
function changeLines(changes: unknown): string {
  if (!Array.isArray(changes)) return '';
  return changes
    .filter(isRecord)
    .map((change) => `${String(change.kind)} ${String(change.path)}`)
    .join('\n');
}

function convertFileChange(context: ItemContext): AgentOutput[] {
  const { item } = context;
  const changes = (Array.isArray(item.changes) ? item.changes : []) as JsonValue;
  return toolEvents(context, CODEX_TOOL_NAMES.fileChange, { changes }, () => {
    const status = optionalString(item.status) ?? 'completed';
    return {
      output: changeLines(item.changes),
      isError: status !== 'completed',
      structured: { changes, status },
    };
  });
}

/** The text blocks of an MCP result, the way a model reads them. */
function mcpResultText(result: unknown): string {
  if (!isRecord(result) || !Array.isArray(result.content)) return '';
  return result.content
    .flatMap((block) => (isRecord(block) && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
}

function convertMcpToolCall(context: ItemContext): AgentOutput[] {
  const { item } = context;
  // The name MCP tools have in Claude Code too, so one processor can serve both.
  const toolName = `mcp__${String(item.server)}__${String(item.tool)}`;
  const input = (item.arguments ?? {}) as JsonValue;
  return toolEvents(context, toolName, input, () => {
    const error = isRecord(item.error) ? optionalString(item.error.message) : undefined;
    const failed = item.status === 'failed' || error !== undefined;
    const result: ReturnType<Parameters<typeof toolEvents>[3]> = {
      output: error ?? mcpResultText(item.result),
      isError: failed,
    };
    if (item.result !== undefined && item.result !== null) result.structured = item.result as JsonValue;
    return result;
  });
}

function convertWebSearch(context: ItemContext): AgentOutput[] {
  const { item } = context;
  const input: Record<string, JsonValue> = { query: optionalString(item.query) ?? '' };
  if (item.action !== undefined) input.action = item.action as JsonValue;
  // Codex reports no results, only that the search was made.
  return toolEvents(context, CODEX_TOOL_NAMES.webSearch, input, () => ({ output: '', isError: false }));
}

/** `[x] done` / `[ ] open` lines. */
function checklist(items: readonly Line[]): string {
  return items.map((entry) => `${entry.completed === true ? '[x]' : '[ ]'} ${String(entry.text)}`).join('\n');
}

/**
 * Each new version of the plan is one call, answered at once, as Claude Code's TodoWrite and Gemini
 * CLI's write_todos are; `completed` repeats the last version when the turn ends, and is skipped then.
 */
function convertTodoList(context: ItemContext): AgentOutput[] {
  const { item, id, state, timestamp } = context;
  const items = (Array.isArray(item.items) ? item.items : []).filter(isRecord);
  const todos = items.map((entry) => ({
    content: String(entry.text),
    status: entry.completed === true ? 'completed' : 'pending',
  }));
  const text = checklist(items);
  const seen = state.todoLists.get(id);
  if (context.phase === 'completed') state.todoLists.delete(id);
  else state.todoLists.set(id, { versions: (seen?.versions ?? 0) + 1, last: text });
  if (seen?.last === text) return [];
  const callId = `${state.callId(id)}#${(seen?.versions ?? 0) + 1}`;
  return [
    { type: 'tool_use', timestamp, id: callId, toolName: CODEX_TOOL_NAMES.todoList, input: { todos } },
    {
      type: 'tool_result',
      timestamp,
      toolUseId: callId,
      toolName: CODEX_TOOL_NAMES.todoList,
      output: text,
      isError: false,
    },
  ];
}

function convertItemContent(context: ItemContext): AgentOutput[] {
  const { item, id, phase, timestamp, state } = context;
  switch (item.type) {
    case 'agent_message': {
      // Codex sends an agent message whole, once complete; earlier phases add nothing.
      const text = optionalString(item.text);
      if (phase !== 'completed' || text === undefined) return [];
      state.lastText = text;
      return [{ type: 'text', timestamp, id: state.callId(id), text }];
    }
    case 'reasoning': {
      const text = optionalString(item.text);
      if (phase !== 'completed' || text === undefined) return [];
      return [{ type: 'reasoning', timestamp, id: state.callId(id), text }];
    }
    case 'command_execution':
      return convertCommand(context);
    case 'file_change':
      return convertFileChange(context);
    case 'mcp_tool_call':
      return convertMcpToolCall(context);
    case 'web_search':
      return convertWebSearch(context);
    case 'todo_list':
      return convertTodoList(context);
    case 'error': {
      // An error item is a warning (an unknown model, a deprecated setting): the turn goes on.
      const message = optionalString(item.message) ?? 'Codex CLI reported an error';
      return [{ type: 'error', timestamp, ...classifyCodexError(message), message, fatal: false }];
    }
    default:
      return [unknownEvent({ type: `item.${phase}`, item: item as JsonValue }, timestamp)];
  }
}

/** The events of an `item.started`/`item.updated`/`item.completed` line's `item`. */
export function convertCodexItem(
  item: unknown,
  phase: ItemPhase,
  timestamp: string,
  state: CodexSessionState,
): AgentOutput[] {
  if (!isRecord(item) || typeof item.id !== 'string' || typeof item.type !== 'string')
    return [unknownEvent({ type: `item.${phase}`, item: (item ?? null) as JsonValue }, timestamp)];
  const known = ITEM_FIELDS[item.type];
  const events = convertItemContent({ item, id: item.id, phase, timestamp, state });
  if (known === undefined) return events;
  return [...events, ...unknownFieldsEvent(`item.${phase}.${item.type}`, item, known, timestamp)];
}
