import {
  type ConversationMessage,
  contentText,
  hasNonTextParts,
  type JsonValue,
  type OpenAIToolCall,
  type ToolExecutionMetadata,
} from '@cairn/core';
import { mediaSummary } from './media-summary.js';
import { runningToolSummary } from './running-tool-summary.js';
import type { ToolCallView, ToolProcessorRegistry } from './tool-processors/index.js';

/** What the ledger's records say about a call without a result yet: its approval, its attempts. */
export interface CallLedgerState {
  approval?: NonNullable<ToolExecutionMetadata['approval']>;
  /** The latest attempt started (a `tool_intent`). */
  attempt?: number;
  /** `awaiting_approval` while undecided, `running` once approved or started. */
  status?: 'awaiting_approval' | 'running' | undefined;
}

/**
 * One display message for a tool call and its result (RFC-20250124-001): the summary as content,
 * the merged call and result in `toolExecution`; an interrupted or missing result is `unfinished`
 * (or where the ledger says the call stands: awaiting approval, running). Built field by field,
 * without spreads: it runs once per call.
 */
export function executionMessage(
  call: OpenAIToolCall,
  input: JsonValue,
  assistant: ConversationMessage,
  result: ConversationMessage | undefined,
  registry: ToolProcessorRegistry,
  cwd: string | undefined,
  ledger?: CallLedgerState,
): ConversationMessage {
  const finished = result !== undefined && result.interrupted !== true;
  const toolName = call.function.name;
  const content = finished ? result.content : '';
  const output = typeof content === 'string' ? content : contentText(content, { placeholders: true });
  const isError = finished && result.isError === true;
  const view: ToolCallView = {
    toolName,
    toolUseId: call.id,
    input,
    output,
    isError,
    status: finished ? 'completed' : ((result === undefined ? ledger?.status : undefined) ?? 'unfinished'),
  };
  if (finished && result.structuredResult !== undefined) view.structured = result.structuredResult;
  if (cwd !== undefined) view.cwd = cwd;
  const described = registry.describe(view);
  const { details } = described;
  // A result with an image (Claude Code's Read of a PNG): the summary says what came back, and the
  // parts go with the execution, so a view can show the image.
  const parts = finished && Array.isArray(result.content) ? result.content : undefined;
  const media = parts === undefined || isError ? undefined : mediaSummary(parts);
  const summary = media === undefined ? described.summary : `${described.summary} → ${media}`;
  const durationMs = result?.duration ?? 0;
  const status = finished
    ? undefined
    : result === undefined && ledger?.status !== undefined
      ? ledger.status
      : 'unfinished';
  const toolExecution: ToolExecutionMetadata =
    status === undefined
      ? { toolName, toolUseId: call.id, input, output, isError, durationMs, summary }
      : { toolName, toolUseId: call.id, input, status, output, isError, durationMs, summary };
  if (ledger?.approval !== undefined) toolExecution.approval = ledger.approval;
  if (ledger?.attempt !== undefined && ledger.attempt > 1) toolExecution.attempt = ledger.attempt;
  if (parts !== undefined && hasNonTextParts(parts)) toolExecution.content = parts;
  if (details !== undefined) toolExecution.details = details;
  // Where the display message sits in the log: at its result, or at its call when there is none;
  // its time is that message's too (when the tool ran, not when the model started its message).
  const anchor = result ?? assistant;
  const message: ConversationMessage = {
    id: `${assistant.id}:${call.id}`,
    role: 'assistant',
    createdAt: anchor.createdAt,
    content: summary,
    partType: 'tool_execution',
    toolName,
    duration: durationMs,
    toolExecution,
  };
  addContextFields(message, anchor);
  if (finished && result.fullOutputPath !== undefined) message.fullOutputPath = result.fullOutputPath;
  return message;
}

/**
 * The live display message of a call whose result is awaited (`status: 'running'`), under the id
 * of the execution that will replace it once the result is in (see `executionMessage`).
 */
export function runningExecutionMessage(
  callId: string,
  toolName: string,
  input: JsonValue,
  assistant: ConversationMessage,
  cwd: string | undefined,
): ConversationMessage {
  const summary = runningToolSummary(toolName, input, cwd);
  const message: ConversationMessage = {
    id: `${assistant.id}:${callId}`,
    role: 'assistant',
    createdAt: assistant.createdAt,
    content: summary,
    partType: 'tool_execution',
    toolName,
    duration: 0,
    toolExecution: {
      toolName,
      toolUseId: callId,
      input,
      status: 'running',
      output: '',
      isError: false,
      durationMs: 0,
      summary,
    },
  };
  addContextFields(message, assistant);
  return message;
}

/** Copies the fields saying which session `from` belongs to and where it is in the log onto `to`. */
export function addContextFields(to: ConversationMessage, from: ConversationMessage): void {
  if (from.mode !== undefined) to.mode = from.mode;
  if (from.runId !== undefined) to.runId = from.runId;
  if (from.agentId !== undefined) to.agentId = from.agentId;
  if (from.seq !== undefined) to.seq = from.seq;
}
