import { CairnError, type CairnErrorCode } from '@cairn/core';

/**
 * `<program>: <problem> [<CODE>] — <fix>` on one line, for stderr. The fix is the error's own
 * `details.fix`, else `usualFixes[code]` (what to do about failures that come without one, such as a
 * provider's); without either the line ends at the code. Anything not a `CairnError` prints its message.
 */
export function formatErrorLine(
  program: string,
  error: unknown,
  usualFixes: Partial<Record<CairnErrorCode, string>> = {},
): string {
  if (!CairnError.is(error)) return `${program}: ${error instanceof Error ? error.message : String(error)}`;
  const fix = typeof error.details?.fix === 'string' ? error.details.fix : usualFixes[error.code];
  return `${program}: ${error.message} [${error.code}]${fix === undefined ? '' : ` — ${fix}`}`;
}
