import {
  type AgentOutput,
  type CairnErrorCode,
  isRetryableByDefault,
  type JsonValue,
  type ProviderMetadata,
} from '@cairn/core';
import { convertAnthropicUsage } from '@cairn/provider-utils';
import { codeOfApiStatus, parseCliApiError } from '../cli-api-error.js';
import { ownEntry } from '../own-entry.js';
import {
  type ClaudeCodeEventContext,
  errorEventOf,
  eventContextOf,
  eventOf,
  isJsonObject,
  type JsonObject,
  numberOf,
  stringOf,
} from './claude-code-event-context.js';
import {
  addUnmappedClaudeCodeFields,
  knownClaudeCodeFields,
  toJsonValue,
  unknownClaudeCodeEvent,
} from './unknown-claude-code-event.js';

const nonNegative = (value: number | undefined): number | undefined =>
  value !== undefined && value >= 0 ? value : undefined;

// `errors` entries Claude Code adds for its own diagnosis ("[ede_diagnostic] result_type=user …"):
// kept in the result's metadata, never shown to users as the error.
const DIAGNOSTIC = /^\[[a-z_]+_diagnostic\]/;

// What a failed result with no message of its own ended with, by its `terminal_reason`.
const TERMINAL_REASON_MESSAGES: Readonly<Record<string, string>> = {
  aborted_tools: 'Claude Code was interrupted while a tool was running',
  aborted_streaming: 'Claude Code was interrupted while the model was answering',
};

function apiErrorStatusOf(line: JsonObject): number | undefined {
  const status = numberOf(line.api_error_status);
  return status !== undefined && Number.isInteger(status) ? status : undefined;
}

// The CLI's outcome labels that have a more precise Cairn code than a generic agent failure.
function errorCodeOf(line: JsonObject, subtype: string | undefined, message: string): CairnErrorCode {
  const status = apiErrorStatusOf(line);
  if (status !== undefined) return codeOfApiStatus(status, message);
  if (subtype === 'error_max_turns') return 'LOOP_MAX_TURNS';
  return stringOf(line.terminal_reason)?.startsWith('aborted') === true ? 'LLM_ABORTED' : 'AGENT_FAILED';
}

const errorTexts = (line: JsonObject): string[] =>
  Array.isArray(line.errors)
    ? line.errors.map((error) => (typeof error === 'string' ? error : JSON.stringify(error)))
    : [];

// Error results carry their message in `result` (API failures) or in an `errors` list.
function errorMessageOf(line: JsonObject, subtype: string | undefined): string {
  const result = stringOf(line.result);
  const status = apiErrorStatusOf(line);
  if (result !== undefined && result !== '')
    return status === undefined ? result : parseCliApiError(result, status).message;
  const texts = errorTexts(line).filter((text) => !DIAGNOSTIC.test(text));
  if (texts.length > 0) return texts.join('\n');
  const reason = stringOf(line.terminal_reason);
  const known = reason === undefined ? undefined : ownEntry(TERMINAL_REASON_MESSAGES, reason);
  if (known !== undefined) return known;
  return `Claude Code failed (${reason ?? subtype ?? 'unknown error'})`;
}

// How and why the session ended, as the CLI reported it: kept on the session result. Built field
// by field, in the order of `definedFields({ terminalReason, stopReason, apiErrorStatus, modelUsage, errors })`.
function resultMetadata(line: JsonObject): ProviderMetadata | undefined {
  const fields: Record<string, JsonValue> = {};
  const terminalReason = stringOf(line.terminal_reason);
  if (terminalReason !== undefined) fields.terminalReason = terminalReason;
  const stopReason = stringOf(line.stop_reason);
  if (stopReason !== undefined) fields.stopReason = stopReason;
  const apiErrorStatus = apiErrorStatusOf(line);
  if (apiErrorStatus !== undefined) fields.apiErrorStatus = apiErrorStatus;
  if (isJsonObject(line.modelUsage)) fields.modelUsage = line.modelUsage;
  // All of them, the diagnostics (kept out of the error's message) included.
  const errors = errorTexts(line);
  if (errors.length > 0) fields.errors = errors;
  return Object.keys(fields).length === 0 ? undefined : { 'claude-code': fields };
}

export interface ClaudeCodeResultOptions {
  /**
   * The run's error was reported already (Claude Code's synthetic API-error message precedes its
   * result): the result line adds no second error event.
   */
  errorReported?: boolean;
}

/** The events of a `result` line: the summed usage, the session result, and an error for failures. */
export function convertClaudeCodeResultLine(
  line: JsonObject,
  context: ClaudeCodeEventContext,
  options: ClaudeCodeResultOptions = {},
): AgentOutput[] {
  const events: AgentOutput[] = [];
  const usage = isJsonObject(line.usage) ? convertAnthropicUsage(line.usage) : undefined;
  if (usage !== undefined) {
    const usageEvent = eventOf('usage', context);
    usageEvent.usage = usage;
    events.push(usageEvent);
  }
  const subtype = stringOf(line.subtype);
  const isError = line.is_error === true || (subtype !== undefined && subtype !== 'success');
  // Unmapped fields and refusals first: the session result stays the last event of a run but for its error.
  addUnmappedClaudeCodeFields(events, line, RESULT_FIELDS, context);
  if (Array.isArray(line.permission_denials) && line.permission_denials.length > 0)
    events.push(...permissionDenials(line.permission_denials, context));
  // Built field by field, in the order of `{ type, ...context, isError, ...definedFields(…) }`.
  const sessionResult = eventOf('session_result', context);
  sessionResult.isError = isError;
  const sessionId = stringOf(line.session_id);
  if (sessionId !== undefined) sessionResult.sessionId = sessionId;
  if (subtype !== undefined) sessionResult.subtype = subtype;
  const result = stringOf(line.result);
  if (result !== undefined) sessionResult.result = result;
  const turns = numberOf(line.num_turns);
  if (turns !== undefined && Number.isInteger(turns) && turns >= 0) sessionResult.turns = turns;
  const durationMs = nonNegative(numberOf(line.duration_ms));
  if (durationMs !== undefined) sessionResult.durationMs = durationMs;
  const costUsd = nonNegative(numberOf(line.total_cost_usd));
  if (costUsd !== undefined) sessionResult.costUsd = costUsd;
  if (usage !== undefined) sessionResult.usage = usage;
  const providerMetadata = resultMetadata(line);
  if (providerMetadata !== undefined) sessionResult.providerMetadata = providerMetadata;
  events.push(sessionResult);
  if (isError && options.errorReported !== true) {
    const message = errorMessageOf(line, subtype);
    const code = errorCodeOf(line, subtype, message);
    // The result line is the session's last word: the run ended with this failure.
    events.push(errorEventOf(context, code, message, isRetryableByDefault(code), true));
  }
  return events;
}

// The result fields the events above carry; `permission_denials` became TOOL_DENIED errors.
const RESULT_FIELDS = knownClaudeCodeFields([
  'usage',
  'is_error',
  'result',
  'num_turns',
  'duration_ms',
  'total_cost_usd',
  'permission_denials',
  'errors',
  'terminal_reason',
  'stop_reason',
  'api_error_status',
  'modelUsage',
]);

// Tools the user's permission settings refused; the run may still have succeeded around them.
function permissionDenials(denials: JsonValue[], context: ClaudeCodeEventContext): AgentOutput[] {
  return denials.filter(isJsonObject).map((denial) => {
    const toolName = stringOf(denial.tool_name) ?? 'a tool';
    const toolUseId = stringOf(denial.tool_use_id);
    const message = `Claude Code was not permitted to use ${toolName}${toolUseId === undefined ? '' : ` (call ${toolUseId})`}`;
    const event = errorEventOf(context, 'TOOL_DENIED', message, false, false);
    event.raw = JSON.stringify(denial);
    return event;
  });
}

/**
 * The events of Claude Code's `--output-format json` output: one `result` object. Anything else
 * becomes an `unknown` event; never throws.
 */
export function convertClaudeCodeResult(value: unknown, now: () => Date = () => new Date()): AgentOutput[] {
  // The caller's object may hold what JSON cannot (undefined, cycles): one copy makes it JSON.
  const json = toJsonValue(value);
  if (!isJsonObject(json) || json.type !== 'result') {
    return [unknownClaudeCodeEvent(json, { timestamp: now().toISOString() })];
  }
  return convertClaudeCodeResultLine(json, eventContextOf(json, now));
}
