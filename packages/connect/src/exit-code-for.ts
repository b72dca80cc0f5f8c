import { CairnError } from '@cairn/core';

/**
 * The process exit code for a failure of a command-line program: one per family of `CairnError` codes,
 * so scripts can tell them apart — 2 `INVALID_*` and `PACKAGE_MISSING` (the settings ask for what is not
 * installed: fixed by the user, like a bad flag, not by retrying), 3 `STORE_*`, 4 `LLM_*`, 5 `TOOL_*` / `LOOP_*`,
 * 6 `AGENT_FAILED`, 130 `LLM_ABORTED` (as for Ctrl-C), 1 anything else.
 */
export function exitCodeFor(error: unknown): number {
  if (!CairnError.is(error)) return 1;
  if (error.code === 'LLM_ABORTED') return 130;
  if (error.code.startsWith('INVALID_') || error.code === 'PACKAGE_MISSING') return 2;
  if (error.code.startsWith('STORE_')) return 3;
  if (error.code.startsWith('LLM_')) return 4;
  if (error.code.startsWith('TOOL_') || error.code.startsWith('LOOP_')) return 5;
  if (error.code === 'AGENT_FAILED') return 6;
  return 1;
}
