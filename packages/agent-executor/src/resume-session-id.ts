import { CairnError } from '@cairn/core';

/**
 * What a session id passed to `--resume` may look like: a letter or digit, then up to 127 letters,
 * digits, `.`, `_` or `-`. Claude Code and Gemini CLI session ids are UUIDs; Gemini CLI also takes
 * `latest` or an index. It never starts with `-`, so it can never be read as another option (stricter
 * than `isSafeId` from `@cairn/core`, which allows a leading `-`).
 */
export const RESUME_SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Throws `INVALID_ARGUMENT` unless `id` matches `RESUME_SESSION_ID_PATTERN`. `source` says where the
 * id came from ("resume", "the session recorded in conversation c").
 */
export function assertResumeSessionId(source: string, id: unknown): asserts id is string {
  if (typeof id === 'string' && RESUME_SESSION_ID_PATTERN.test(id)) return;
  const shown =
    typeof id === 'string' ? JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id) : typeof id;
  throw new CairnError(
    'INVALID_ARGUMENT',
    `Invalid session id ${shown} (${source}): use 1-128 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit`,
  );
}
