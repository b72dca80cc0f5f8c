import { type AgentOutput, type CairnErrorCode, definedFields } from '@cairn/core';
import { convertAnthropicUsage } from '@cairn/provider-utils';
import {
  type ClaudeCodeEventContext,
  eventContextOf,
  isJsonObject,
  type JsonObject,
  numberField,
  stringField,
} from './claude-code-event-context.js';
import { unknownClaudeCodeEvent, unmappedClaudeCodeFields } from './unknown-claude-code-event.js';

const nonNegative = (value: number | undefined): number | undefined =>
  value !== undefined && value >= 0 ? value : undefined;

// The CLI's outcome labels that have a more precise Cairn code than a generic agent failure.
const errorCodeOf = (subtype: string | undefined): CairnErrorCode =>
  subtype === 'error_max_turns' ? 'LOOP_MAX_TURNS' : 'AGENT_FAILED';

// Error results carry their message in `result` (API failures) or in an `errors` list.
function errorMessageOf(line: JsonObject, subtype: string | undefined): string {
  const result = stringField(line, 'result');
  if (result !== undefined && result !== '') return result;
  const errors = line.errors;
  if (Array.isArray(errors)) {
    const texts = errors.map((error) => (typeof error === 'string' ? error : JSON.stringify(error)));
    if (texts.length > 0) return texts.join('\n');
  }
  return `Claude Code failed (${subtype ?? 'unknown error'})`;
}

/** The events of a `result` line: the summed usage, the session result, and an error for failures. */
export function convertClaudeCodeResultLine(
  line: JsonObject,
  context: ClaudeCodeEventContext,
): AgentOutput[] {
  const events: AgentOutput[] = [];
  const usage = isJsonObject(line.usage) ? convertAnthropicUsage(line.usage) : undefined;
  if (usage !== undefined) events.push({ type: 'usage', ...context, usage });
  const subtype = stringField(line, 'subtype');
  const isError = line.is_error === true || (subtype !== undefined && subtype !== 'success');
  const sessionId = stringField(line, 'session_id');
  const result = stringField(line, 'result');
  const turns = numberField(line, 'num_turns');
  const durationMs = nonNegative(numberField(line, 'duration_ms'));
  const costUsd = nonNegative(numberField(line, 'total_cost_usd'));
  // Unmapped fields and refusals first: the session result stays the last event of a run but for its error.
  events.push(...unmappedClaudeCodeFields(line, RESULT_FIELDS, context), ...permissionDenials(line, context));
  events.push({
    type: 'session_result',
    ...context,
    isError,
    ...definedFields({ sessionId, subtype, result }),
    ...(turns !== undefined && Number.isInteger(turns) && turns >= 0 ? { turns } : {}),
    ...definedFields({ durationMs, costUsd, usage }),
  });
  if (isError) {
    events.push({
      type: 'error',
      ...context,
      code: errorCodeOf(subtype),
      message: errorMessageOf(line, subtype),
      retryable: false,
      // The result line is the session's last word: the run ended with this failure.
      fatal: true,
    });
  }
  return events;
}

// The result fields the events above carry; `permission_denials` became TOOL_DENIED errors.
const RESULT_FIELDS = [
  'usage',
  'is_error',
  'result',
  'num_turns',
  'duration_ms',
  'total_cost_usd',
  'permission_denials',
];

// Tools the user's permission settings refused; the run may still have succeeded around them.
function permissionDenials(line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
  const denials = Array.isArray(line.permission_denials) ? line.permission_denials.filter(isJsonObject) : [];
  return denials.map((denial) => {
    const toolName = stringField(denial, 'tool_name') ?? 'a tool';
    const toolUseId = stringField(denial, 'tool_use_id');
    return {
      type: 'error',
      ...context,
      code: 'TOOL_DENIED',
      message: `Claude Code was not permitted to use ${toolName}${toolUseId === undefined ? '' : ` (call ${toolUseId})`}`,
      retryable: false,
      fatal: false,
      raw: JSON.stringify(denial),
    };
  });
}

/**
 * The events of Claude Code's `--output-format json` output: one `result` object. Anything else
 * becomes an `unknown` event; never throws.
 */
export function convertClaudeCodeResult(json: unknown, now: () => Date = () => new Date()): AgentOutput[] {
  if (!isJsonObject(json) || json.type !== 'result') {
    return [unknownClaudeCodeEvent(json, { timestamp: now().toISOString() })];
  }
  return convertClaudeCodeResultLine(json, eventContextOf(json, now));
}
