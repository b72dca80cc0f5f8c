import { CairnError } from '../errors/cairn-error.js';

/** Letters, digits, `.`, `_`, `-`; 1 to 128 characters. */
export const SAFE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

const MAX_REF_SEGMENTS = 8;

/**
 * True when `id` can be used as one path segment or key without escaping: it matches
 * `SAFE_ID_PATTERN` and does not start with a dot (so never `.`, `..` or a hidden file).
 */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID_PATTERN.test(id) && !id.startsWith('.');
}

// A bounded, printable excerpt of a rejected value: it may be huge or contain control bytes.
function invalidId(kind: string, value: unknown, rule: string): CairnError {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
      : typeof value;
  return new CairnError('INVALID_ID', `Invalid ${kind} ${shown}: ${rule}`, { details: { kind } });
}

/**
 * Throws `INVALID_ID` unless `id` is safe. Everything that turns an id into a file path, a
 * storage key or a query parameter calls this first; `kind` names the id in the error
 * ("conversationId", "runId", …).
 */
export function assertSafeId(kind: string, id: unknown): asserts id is string {
  if (isSafeId(id)) return;
  throw invalidId(kind, id, 'use 1-128 characters from A-Z a-z 0-9 . _ -, not starting with a dot');
}

/**
 * Throws `INVALID_ID` unless `ref` is a store-relative reference: 1 to 8 safe ids joined by `/`
 * (`tool-results/conv-1/msg-9.json`). No empty segment, no `.`/`..`, no leading `/`, no backslash.
 */
export function assertSafeRef(kind: string, ref: unknown): asserts ref is string {
  if (typeof ref === 'string') {
    const segments = ref.split('/');
    if (segments.length <= MAX_REF_SEGMENTS && segments.every(isSafeId)) return;
  }
  throw invalidId(
    kind,
    ref,
    `use 1-${MAX_REF_SEGMENTS} safe ids (A-Z a-z 0-9 . _ -, no leading dot) joined by "/"`,
  );
}
