import {
  type AgentOutput,
  type AgentOutputOf,
  definedFields,
  isRetryableByDefault,
  type JsonValue,
} from '@cairn/core';
import { parseCliApiError } from '../cli-api-error.js';
import { ownEntry } from '../own-entry.js';
import { durationFromStats, usageFromStreamStats } from './convert-gemini-cli-stats.js';
import { geminiCliSessionErrorCode, geminiCliToolErrorCode } from './gemini-cli-error-codes.js';
import { isRecord, unknownEvent, unknownFieldsEvent } from './gemini-cli-event-factory.js';

/** What the stream converter remembers between lines. */
export interface GeminiCliSessionState {
  sessionId: string | undefined;
  /** Tool names by `tool_id`, until the result arrives (the result line does not repeat the name). */
  readonly toolNames: Map<string, string>;
  /** The file of each waiting write_file/replace call, named in a result that has no output. */
  readonly filePaths: Map<string, string>;
  /** The last assistant text, reported as the session's final text. */
  lastText: string | undefined;
}

type Line = Record<string, unknown>;

const fields = (...names: string[]): ReadonlySet<string> => new Set(['type', 'timestamp', ...names]);

const INIT_FIELDS = fields('session_id', 'model');
const MESSAGE_FIELDS = fields('role', 'content', 'delta');
const TOOL_USE_FIELDS = fields('tool_name', 'tool_id', 'parameters');
const TOOL_RESULT_FIELDS = fields('tool_id', 'status', 'output', 'error');
const RESULT_FIELDS = fields('status', 'stats', 'error');
const ERROR_FIELDS = fields('severity', 'message');
const STATS_FIELDS = new Set([
  'type',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'cached',
  'input',
  'duration_ms',
  'tool_calls',
  'models',
]);

const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function convertInit(line: Line, timestamp: string, state: GeminiCliSessionState): AgentOutput[] {
  const sessionId = optionalString(line.session_id);
  if (sessionId !== undefined) state.sessionId = sessionId;
  const event: AgentOutput = { type: 'session_start', timestamp, provider: 'gemini-cli' };
  if (sessionId !== undefined) event.sessionId = sessionId;
  const model = optionalString(line.model);
  if (model !== undefined) event.model = model;
  return [event, ...unknownFieldsEvent(line, INIT_FIELDS, timestamp)];
}

function convertUserMessage(line: Line, timestamp: string): AgentOutput[] {
  if (typeof line.content !== 'string') return [unknownEvent(line as JsonValue, timestamp)];
  return [
    { type: 'user_message', timestamp, text: line.content },
    ...unknownFieldsEvent(line, MESSAGE_FIELDS, timestamp),
  ];
}

function convertToolUse(line: Line, timestamp: string, state: GeminiCliSessionState): AgentOutput[] {
  const { tool_name: toolName, tool_id: id } = line;
  if (typeof toolName !== 'string' || typeof id !== 'string')
    return [unknownEvent(line as JsonValue, timestamp)];
  state.toolNames.set(id, toolName);
  const input = (line.parameters ?? {}) as JsonValue;
  const filePath = isRecord(input) ? optionalString(input.file_path) : undefined;
  if (filePath !== undefined && ownEntry(SILENT_SUCCESS, toolName) !== undefined)
    state.filePaths.set(id, filePath);
  return [
    { type: 'tool_use', timestamp, id, toolName, input },
    ...unknownFieldsEvent(line, TOOL_USE_FIELDS, timestamp),
  ];
}

// Gemini CLI 0.61 reports a successful write_file or replace with no `output` at all: what is
// stored for it says what happened rather than nothing.
const SILENT_SUCCESS: Readonly<Record<string, (path: string) => string>> = {
  write_file: (path) => `Wrote ${path}`,
  replace: (path) => `Edited ${path}`,
};

function silentSuccessText(toolName: string | undefined, filePath: string | undefined): string {
  const text = toolName === undefined ? undefined : ownEntry(SILENT_SUCCESS, toolName);
  if (text !== undefined) return text(filePath ?? 'the file');
  return toolName === undefined ? '' : `${toolName} succeeded`;
}

function convertToolResult(line: Line, timestamp: string, state: GeminiCliSessionState): AgentOutput[] {
  const id = line.tool_id;
  if (typeof id !== 'string') return [unknownEvent(line as JsonValue, timestamp)];
  const error = isRecord(line.error) ? line.error : undefined;
  const isError = line.status !== 'success' || error !== undefined;
  // The error's message names the cause ("File not found: <path>"); `output` is often a bare summary.
  const toolName = state.toolNames.get(id);
  const filePath = state.filePaths.get(id);
  state.toolNames.delete(id);
  state.filePaths.delete(id);
  const output =
    optionalString(error?.message) ??
    optionalString(line.output) ??
    (isError ? '' : silentSuccessText(toolName, filePath));
  const event: AgentOutputOfResult = { type: 'tool_result', timestamp, toolUseId: id, output, isError };
  if (toolName !== undefined) event.toolName = toolName;
  const structured: Record<string, JsonValue> = {};
  if (line.output !== undefined) structured.output = line.output as JsonValue;
  if (error !== undefined) structured.error = error as JsonValue;
  // The failure's kind as a Cairn code, beside Gemini's own `error.type`.
  if (isError) structured.errorCode = geminiCliToolErrorCode(optionalString(error?.type));
  if (Object.keys(structured).length > 0) event.structured = structured;
  return [event, ...unknownFieldsEvent(line, TOOL_RESULT_FIELDS, timestamp)];
}

type AgentOutputOfResult = Extract<AgentOutput, { type: 'tool_result' }>;

// A failed session's `error`: `[API Error: …]` messages are read for the provider's message and
// status; Gemini's `error.type` stays in `providerMetadata`, the CLI's text in `raw`.
function resultErrorEvent(
  line: Line,
  error: Record<string, unknown> | undefined,
  timestamp: string,
): AgentOutputOf<'error'> {
  const text = optionalString(error?.message);
  if (text === undefined) {
    return {
      type: 'error',
      timestamp,
      code: 'AGENT_FAILED',
      message: `Gemini CLI ended with status ${String(line.status)}`,
      retryable: false,
      fatal: true,
    };
  }
  const api = API_ERROR.test(text) ? parseCliApiError(text) : undefined;
  const type = optionalString(error?.type);
  const code = api?.code ?? geminiCliSessionErrorCode(type);
  return {
    type: 'error',
    timestamp,
    code,
    message: api?.message ?? text,
    retryable: isRetryableByDefault(code),
    fatal: true,
    ...(api === undefined ? {} : { raw: text }),
    ...(type === undefined
      ? {}
      : { providerMetadata: { 'gemini-cli': definedFields({ errorType: type, status: api?.status }) } }),
  };
}

const API_ERROR = /^\s*\[?API Error:/i;

function convertResult(line: Line, timestamp: string, state: GeminiCliSessionState): AgentOutput[] {
  const events: AgentOutput[] = [];
  const usage = usageFromStreamStats(line.stats);
  if (usage !== undefined) events.push({ type: 'usage', timestamp, usage });
  const error = isRecord(line.error) ? line.error : undefined;
  const isError = line.status !== 'success' || error !== undefined;
  if (error !== undefined || isError) events.push(resultErrorEvent(line, error, timestamp));
  const result: Extract<AgentOutput, { type: 'session_result' }> = {
    type: 'session_result',
    timestamp,
    isError,
  };
  if (state.sessionId !== undefined) result.sessionId = state.sessionId;
  const status = optionalString(line.status);
  if (status !== undefined) result.subtype = status;
  if (state.lastText !== undefined) result.result = state.lastText;
  const durationMs = durationFromStats(line.stats);
  // A failed session reports `duration_ms: 0`: no duration known, not an instant run.
  if (durationMs !== undefined && !(isError && durationMs === 0)) result.durationMs = durationMs;
  if (usage !== undefined) result.usage = usage;
  events.push(result, ...unknownFieldsEvent(line, RESULT_FIELDS, timestamp));
  if (isRecord(line.stats))
    events.push(...unknownFieldsEvent({ type: 'result.stats', ...line.stats }, STATS_FIELDS, timestamp));
  return events;
}

function convertError(line: Line, timestamp: string): AgentOutput[] {
  const message = optionalString(line.message);
  if (message === undefined) return [unknownEvent(line as JsonValue, timestamp)];
  // The CLI reports `warning` and `error` lines and goes on to its `result`; only a `fatal` one ends it.
  const fatal = line.severity === 'fatal';
  const api = API_ERROR.test(message) ? parseCliApiError(message) : undefined;
  if (api !== undefined) {
    const retryable = isRetryableByDefault(api.code);
    return [
      { type: 'error', timestamp, code: api.code, message: api.message, retryable, fatal, raw: message },
      ...unknownFieldsEvent(line, ERROR_FIELDS, timestamp),
    ];
  }
  return [
    { type: 'error', timestamp, code: 'AGENT_FAILED', message, retryable: false, fatal },
    ...unknownFieldsEvent(line, ERROR_FIELDS, timestamp),
  ];
}

const KNOWN_TYPES = new Set(['init', 'tool_use', 'tool_result', 'result', 'error']);

/** True for the lines `convertGeminiCliLine` understands (assistant chunks are streamed apart). */
export function isKnownGeminiCliLine(line: Line): boolean {
  return KNOWN_TYPES.has(line.type as string) || (line.type === 'message' && line.role === 'user');
}

/** The events of one line that `isKnownGeminiCliLine` accepts; any other line is kept as `unknown`. */
export function convertGeminiCliLine(
  line: Line,
  timestamp: string,
  state: GeminiCliSessionState,
): AgentOutput[] {
  switch (line.type) {
    case 'init':
      return convertInit(line, timestamp, state);
    case 'message':
      if (line.role !== 'user') return [unknownEvent(line as JsonValue, timestamp)];
      return convertUserMessage(line, timestamp);
    case 'tool_use':
      return convertToolUse(line, timestamp, state);
    case 'tool_result':
      return convertToolResult(line, timestamp, state);
    case 'result':
      return convertResult(line, timestamp, state);
    case 'error':
      return convertError(line, timestamp);
    default:
      return [unknownEvent(line as JsonValue, timestamp)];
  }
}
