import { CairnError, type CairnErrorCode } from '@cairn/core';

/**
 * A failure the user can act on: what went wrong and how to fix it, printed as one line. The code
 * is a stable `CairnError` code, so scripts can branch on it.
 */
export function cliFailure(code: CairnErrorCode, problem: string, fix?: string): CairnError {
  return new CairnError(code, problem, fix === undefined ? {} : { details: { fix } });
}

/** The process exit code for a failure: one per family of codes, so scripts can tell them apart. */
export function exitCodeFor(error: unknown): number {
  if (!CairnError.is(error)) return 1;
  if (error.code === 'LLM_ABORTED') return 130;
  if (error.code.startsWith('INVALID_')) return 2;
  if (error.code.startsWith('STORE_')) return 3;
  if (error.code.startsWith('LLM_')) return 4;
  if (error.code.startsWith('TOOL_') || error.code.startsWith('LOOP_')) return 5;
  if (error.code === 'AGENT_FAILED') return 6;
  return 1;
}

/** `cairn: <problem> [<CODE>]` and, when known, the fix on the same line. */
export function formatCliError(error: unknown): string {
  if (!CairnError.is(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return `cairn: ${text}`;
  }
  const fix = typeof error.details?.fix === 'string' ? ` — ${error.details.fix}` : '';
  return `cairn: ${error.message} [${error.code}]${fix}`;
}
