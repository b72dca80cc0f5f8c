import type { CairnErrorCode } from '@cairn/core';
import { ownEntry } from '../own-entry.js';

// Gemini CLI's `ToolErrorType`s that say more than "the tool failed".
const CODES: Readonly<Record<string, CairnErrorCode>> = {
  tool_not_registered: 'TOOL_NOT_FOUND',
  invalid_tool_params: 'TOOL_INVALID_INPUT',
  permission_denied: 'TOOL_DENIED',
  execution_denied: 'TOOL_DENIED',
  path_not_in_workspace: 'TOOL_DENIED',
};

/**
 * The code of a failed Gemini CLI tool call from its result's `error.type` (`tool_not_registered`,
 * `file_not_found`, …): `TOOL_FAILED` for every failure of the tool itself (a missing file, an
 * edit that found nothing to replace), `TOOL_TIMEOUT` for any type that names a timeout.
 */
export function geminiCliToolErrorCode(type: string | undefined): CairnErrorCode {
  if (type === undefined) return 'TOOL_FAILED';
  return ownEntry(CODES, type) ?? (/timeout|timed_out/i.test(type) ? 'TOOL_TIMEOUT' : 'TOOL_FAILED');
}

// Gemini CLI's fatal error classes, as a failed `result` names them in `error.type`.
const SESSION_CODES: Readonly<Record<string, CairnErrorCode>> = {
  FatalAuthenticationError: 'LLM_AUTH',
  FatalTurnLimitedError: 'LOOP_MAX_TURNS',
  FatalCancellationError: 'LLM_ABORTED',
  FatalToolExecutionError: 'TOOL_FAILED',
};

/** The code of a failed Gemini CLI session from its `error.type`; `AGENT_FAILED` for the others. */
export function geminiCliSessionErrorCode(type: string | undefined): CairnErrorCode {
  return (type === undefined ? undefined : ownEntry(SESSION_CODES, type)) ?? 'AGENT_FAILED';
}
