import { formatErrorLine } from '@cairn/connect';
import { CairnError, type CairnErrorCode } from '@cairn/core';

export { exitCodeFor } from '@cairn/connect';

/**
 * A failure the user can act on: what went wrong and how to fix it, printed as one line. The code
 * is a stable `CairnError` code, so scripts can branch on it.
 */
export function cliFailure(code: CairnErrorCode, problem: string, fix?: string): CairnError {
  return new CairnError(code, problem, fix === undefined ? {} : { details: { fix } });
}

// What to do about failures that come without a fix of their own (from a provider, the store).
const USUAL_FIXES: Partial<Record<CairnErrorCode, string>> = {
  LLM_AUTH: 'check the API key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, or --api-key)',
  LLM_RATE_LIMITED: 'wait a little, then send "continue"',
  LLM_CONTEXT_OVERFLOW: 'run /compress in the chat, or start a new conversation',
  LLM_UNAVAILABLE: 'the provider is down or unreachable: try again, "continue" resumes the turn',
  LLM_TIMEOUT: 'try again: "continue" resumes the turn',
  STORE_UNAVAILABLE: 'check that the data directory is writable, or that the database is up, then retry',
  STORE_CORRUPT: 'the damaged lines were quarantined beside the log, not deleted; the rest still loads',
};

/** `cairn: <problem> [<CODE>]` and, when known, the fix on the same line. */
export function formatCliError(error: unknown): string {
  return formatErrorLine('cairn', error, USUAL_FIXES);
}
