import type { AgentOutput, JsonValue } from '@cairn/core';
import { ownEntry } from '../own-entry.js';
import {
  type ClaudeCodeEventContext,
  eventOf,
  isJsonObject,
  isoTime,
  type JsonObject,
  numberOf,
  statusEvent,
  stringOf,
} from './claude-code-event-context.js';
import {
  addUnmappedClaudeCodeFields,
  knownClaudeCodeFields,
  unknownClaudeCodeEvent,
} from './unknown-claude-code-event.js';

const RETRY_FIELDS = knownClaudeCodeFields([
  'attempt',
  'max_retries',
  'retry_delay_ms',
  'error_status',
  'error',
]);
const TASK_FIELDS = knownClaudeCodeFields([
  'task_id',
  'tool_use_id',
  'description',
  'prompt',
  'status',
  'summary',
  'output_file',
  'usage',
  'last_tool_name',
  'patch',
  'task_type',
  'subagent_type',
]);
const STATUS_FIELDS = knownClaudeCodeFields(['status']);

// Claude Code's task lines and the `task_progress` status each stands for (a notification says its own).
const TASK_STATUS: Readonly<Record<string, string>> = {
  task_started: 'started',
  task_progress: 'running',
};

const positiveInteger = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
const count = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
const nonEmpty = (value: string | undefined): string | undefined => (value === '' ? undefined : value);
const NO_USAGE: JsonObject = {};

/** `system/api_retry`: Claude Code is about to retry a failed API request. */
function retryEvents(line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
  const attempt = positiveInteger(numberOf(line.attempt));
  if (attempt === undefined) return [unknownClaudeCodeEvent(line, context)];
  const delay = numberOf(line.retry_delay_ms);
  const status = numberOf(line.error_status);
  // Built field by field, in the order of `{ type, ...context, attempt, ...definedFields(…) }`.
  const event = eventOf('retry', context);
  event.attempt = attempt;
  // Each field set in its own statement, as `definedFields` would: a helper setting any key made
  // the stores megamorphic, which showed in profiles.
  const maxAttempts = positiveInteger(numberOf(line.max_retries));
  if (maxAttempts !== undefined) event.maxAttempts = maxAttempts;
  // The CLI reports a fractional jittered delay; whole milliseconds are what anyone shows.
  if (delay !== undefined && delay >= 0) event.delayMs = Math.round(delay);
  if (status !== undefined && Number.isInteger(status) && status >= 100 && status < 600)
    event.status = status;
  const error = stringOf(line.error);
  if (error !== undefined) event.error = error;
  const events: AgentOutput[] = [event];
  addUnmappedClaudeCodeFields(events, line, RETRY_FIELDS, context);
  return events;
}

// Whether a task patch has a field besides the `status` and `end_time` the event carries.
function hasOtherKeys(patch: JsonObject): boolean {
  for (const key in patch)
    if (key !== 'status' && key !== 'end_time' && Object.hasOwn(patch, key)) return true;
  return false;
}

// `end_time` of a task update is epoch milliseconds: the CLI's own time for the event. (A Date
// drops a fraction of a millisecond, as `Math.trunc` does.)
function timeOf(value: JsonValue | undefined, fallback: string): string {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value < 8.64e15
    ? isoTime(Math.trunc(value))
    : fallback;
}

/**
 * `task_started`/`task_progress`/`task_updated`/`task_notification`: a sub-agent (`Agent` call) or a
 * long Bash run in the background. The kind of task and sub-agent stay in `providerMetadata`.
 */
function taskEvents(line: JsonObject, context: ClaudeCodeEventContext, subtype: string): AgentOutput[] {
  const patch = isJsonObject(line.patch) ? line.patch : undefined;
  const usage = isJsonObject(line.usage) ? line.usage : NO_USAGE;
  const status = ownEntry(TASK_STATUS, subtype) ?? stringOf((patch ?? line).status);
  if (status === undefined) return [unknownClaudeCodeEvent(line, context)];
  const timestamp =
    subtype === 'task_updated' ? timeOf(patch?.end_time, context.timestamp) : context.timestamp;
  // Built field by field, in the order of `definedFields({ taskType, subagentType, patch })`.
  // Each field set in its own statement: a helper setting any key made the stores megamorphic.
  const claudeCode: { taskType?: string; subagentType?: string; patch?: JsonObject } = {};
  const taskType = stringOf(line.task_type);
  if (taskType !== undefined) claudeCode.taskType = taskType;
  const subagentType = stringOf(line.subagent_type);
  if (subagentType !== undefined) claudeCode.subagentType = subagentType;
  // A patch's other fields (a newer CLI's) are kept with it rather than dropped.
  if (patch !== undefined && hasOtherKeys(patch)) claudeCode.patch = patch;
  // Built field by field, in the order of `{ type, ...context, timestamp, ...definedFields(…) }`.
  const event = eventOf('task_progress', context);
  event.timestamp = timestamp;
  const taskId = stringOf(line.task_id);
  if (taskId !== undefined) event.taskId = taskId;
  const toolUseId = stringOf(line.tool_use_id);
  if (toolUseId !== undefined) event.toolUseId = toolUseId;
  event.status = status;
  const description = stringOf(line.description);
  if (description !== undefined) event.description = description;
  const prompt = stringOf(line.prompt);
  if (prompt !== undefined) event.prompt = prompt;
  const summary = nonEmpty(stringOf(line.summary));
  if (summary !== undefined) event.summary = summary;
  const lastToolName = stringOf(line.last_tool_name);
  if (lastToolName !== undefined) event.lastToolName = lastToolName;
  const outputFile = nonEmpty(stringOf(line.output_file));
  if (outputFile !== undefined) event.outputFile = outputFile;
  const totalTokens = count(numberOf(usage.total_tokens));
  if (totalTokens !== undefined) event.totalTokens = totalTokens;
  const toolUses = count(numberOf(usage.tool_uses));
  if (toolUses !== undefined) event.toolUses = toolUses;
  const durationMs = count(numberOf(usage.duration_ms));
  if (durationMs !== undefined) event.durationMs = durationMs;
  if (
    claudeCode.taskType !== undefined ||
    claudeCode.subagentType !== undefined ||
    claudeCode.patch !== undefined
  )
    event.providerMetadata = { 'claude-code': claudeCode };
  const events: AgentOutput[] = [event];
  addUnmappedClaudeCodeFields(events, line, TASK_FIELDS, context);
  return events;
}

/**
 * The events of a `system` line other than `init`: retries, task progress and request status
 * (`--include-partial-messages`), `subtype` being its `subtype` when a string. Lines of other
 * subtypes are kept as `unknown`.
 */
export function convertClaudeCodeSystemLine(
  line: JsonObject,
  subtype: string | undefined,
  context: ClaudeCodeEventContext,
): AgentOutput[] {
  switch (subtype) {
    case 'api_retry':
      return retryEvents(line, context);
    case 'task_started':
    case 'task_progress':
    case 'task_updated':
    case 'task_notification':
      return taskEvents(line, context, subtype);
    case 'status': {
      const status = stringOf(line.status);
      if (status === undefined) return [unknownClaudeCodeEvent(line, context)];
      const events = [statusEvent(context, status, status)];
      addUnmappedClaudeCodeFields(events, line, STATUS_FIELDS, context);
      return events;
    }
    default:
      return [unknownClaudeCodeEvent(line, context)];
  }
}
