import { type AgentOutputOf, isRetryableByDefault } from '@cairn/core';
import { codeOfApiStatus, parseCliApiError } from '../cli-api-error.js';
import { ownEntry } from '../own-entry.js';
import { type EventBase, errorEventOf, type JsonObject, stringOf } from './claude-code-event-context.js';
import { outputTextOf } from './claude-code-tool-result.js';

// Claude Code's `error` names on its synthetic message, for a text that states no HTTP status.
export const STATUS_OF_ERROR: Readonly<Record<string, number>> = {
  rate_limit: 429,
  authentication_failed: 401,
  billing_error: 402,
  invalid_request: 400,
  server_error: 500,
};

/**
 * Claude Code reports a failed API request as an `assistant` line it made itself
 * (`message.model: "<synthetic>"`, a top-level `error`), with the error's text as the content.
 */
export function isClaudeCodeApiError(line: JsonObject, message: JsonObject): boolean {
  return message.model === '<synthetic>' && typeof line.error === 'string';
}

/**
 * The `error` event of a synthetic API-error message: an `LLM_*` code from the HTTP status, the
 * provider's message without prefix or JSON, the CLI's text in `raw`. It ends the run unless it
 * came from a sub-agent, whose failure the calling agent sees as a tool result.
 */
export function claudeCodeApiErrorEvent(
  line: JsonObject,
  message: JsonObject,
  base: EventBase,
): AgentOutputOf<'error'> {
  const text = outputTextOf(Array.isArray(message.content) ? message.content : []);
  const errorName = stringOf(line.error) ?? 'unknown';
  // A status in the text is more precise than the error's name (`server_error` is said for 529 too).
  const parsed = parseCliApiError(text);
  const status = parsed.status ?? ownEntry(STATUS_OF_ERROR, errorName);
  // The text's message does not depend on the status: read once, only the code follows the name's status.
  const { code, message: shown } =
    text === ''
      ? parseCliApiError(`API Error: ${errorName}`, status)
      : {
          code: parsed.status === status ? parsed.code : codeOfApiStatus(status, parsed.message),
          message: parsed.message,
        };
  const event = errorEventOf(
    base,
    code,
    shown,
    isRetryableByDefault(code),
    base.parentToolUseId === undefined,
  );
  event.raw = text;
  event.providerMetadata = {
    'claude-code': status === undefined ? { error: errorName } : { error: errorName, status },
  };
  return event;
}
