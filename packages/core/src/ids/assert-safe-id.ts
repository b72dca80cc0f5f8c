import { CairnError } from '../errors/cairn-error.js';

/** Letters, digits, `.`, `_`, `-`; 1 to 128 characters. */
export const SAFE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * True when `id` can be used as one path segment or key without escaping: it matches
 * `SAFE_ID_PATTERN` and does not start with a dot (so never `.`, `..` or a hidden file).
 */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID_PATTERN.test(id) && !id.startsWith('.');
}

/**
 * Throws `INVALID_ID` unless `id` is safe. Everything that turns an id into a file path, a
 * storage key or a query parameter calls this first; `kind` names the id in the error
 * ("conversationId", "runId", …).
 */
export function assertSafeId(kind: string, id: unknown): asserts id is string {
  if (isSafeId(id)) return;
  // Quote a bounded, printable excerpt: the rejected value may be huge or contain control bytes.
  const shown =
    typeof id === 'string' ? JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id) : typeof id;
  throw new CairnError(
    'INVALID_ID',
    `Invalid ${kind} ${shown}: use 1-128 characters from A-Z a-z 0-9 . _ -, not starting with a dot`,
    { details: { kind } },
  );
}
