import type { AgentOutput, JsonValue } from '@cairn/core';
import { durationFromStats, usageFromStreamStats } from './convert-gemini-cli-stats.js';
import { isRecord, unknownEvent, unknownFieldsEvent } from './gemini-cli-event-factory.js';

/** What the stream converter remembers between lines. */
export interface GeminiCliSessionState {
  sessionId: string | undefined;
  /** Tool names by `tool_id`, until the result arrives (the result line does not repeat the name). */
  readonly toolNames: Map<string, string>;
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
  return [
    { type: 'tool_use', timestamp, id, toolName, input },
    ...unknownFieldsEvent(line, TOOL_USE_FIELDS, timestamp),
  ];
}

function convertToolResult(line: Line, timestamp: string, state: GeminiCliSessionState): AgentOutput[] {
  const id = line.tool_id;
  if (typeof id !== 'string') return [unknownEvent(line as JsonValue, timestamp)];
  const error = isRecord(line.error) ? line.error : undefined;
  const isError = line.status !== 'success' || error !== undefined;
  // The error's message names the cause ("File not found: <path>"); `output` is often a bare summary.
  const output = optionalString(error?.message) ?? optionalString(line.output) ?? '';
  const event: AgentOutputOfResult = { type: 'tool_result', timestamp, toolUseId: id, output, isError };
  const toolName = state.toolNames.get(id);
  if (toolName !== undefined) event.toolName = toolName;
  state.toolNames.delete(id);
  const structured: Record<string, JsonValue> = {};
  if (line.output !== undefined) structured.output = line.output as JsonValue;
  if (error !== undefined) structured.error = error as JsonValue;
  if (Object.keys(structured).length > 0) event.structured = structured;
  return [event, ...unknownFieldsEvent(line, TOOL_RESULT_FIELDS, timestamp)];
}

type AgentOutputOfResult = Extract<AgentOutput, { type: 'tool_result' }>;

function convertResult(line: Line, timestamp: string, state: GeminiCliSessionState): AgentOutput[] {
  const events: AgentOutput[] = [];
  const usage = usageFromStreamStats(line.stats);
  if (usage !== undefined) events.push({ type: 'usage', timestamp, usage });
  const error = isRecord(line.error) ? line.error : undefined;
  const isError = line.status !== 'success' || error !== undefined;
  if (error !== undefined || isError) {
    events.push({
      type: 'error',
      timestamp,
      code: 'AGENT_FAILED',
      message: optionalString(error?.message) ?? `Gemini CLI ended with status ${String(line.status)}`,
      retryable: false,
      fatal: true,
    });
  }
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
  if (durationMs !== undefined) result.durationMs = durationMs;
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
