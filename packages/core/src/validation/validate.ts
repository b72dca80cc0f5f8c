import type { z } from 'zod';
import { CairnError } from '../errors/cairn-error.js';

/** A validation problem: where (`tool_calls[0].function.name`) and what. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** `['tool_calls', 0, 'id']` → `tool_calls[0].id`; the empty path is `(root)`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      return index === 0 ? String(key) : `.${String(key)}`;
    })
    .join('');
}

/** Every reason `value` does not match `schema`; empty when it does. Never throws. */
export function validationIssues(schema: z.ZodType, value: unknown): ValidationIssue[] {
  try {
    const result = schema.safeParse(value);
    if (result.success) return [];
    return result.error.issues.map((issue) => ({
      path: formatIssuePath(issue.path),
      message: issue.message,
    }));
  } catch (error) {
    // Exotic input (a throwing getter, a revoked proxy) is invalid, not a crash.
    return [{ path: '(root)', message: `unreadable value: ${String(error)}` }];
  }
}

/**
 * Returns `value` itself (not zod's stripped copy, so fields written by a newer version survive)
 * when it matches `schema`; otherwise throws `INVALID_MESSAGE` naming the first bad field.
 * `what` names the value in the message ("conversation message", "AgentOutput event").
 */
export function assertValid<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const [first, ...more] = validationIssues(schema, value);
  if (first === undefined) return value as T;
  throw invalidValueError(what, [first, ...more]);
}

/** The `INVALID_MESSAGE` error for `issues`, naming the first. */
export function invalidValueError(
  what: string,
  issues: readonly [ValidationIssue, ...ValidationIssue[]],
): CairnError {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new CairnError('INVALID_MESSAGE', `Invalid ${what} at ${first.path}: ${first.message}${more}`, {
    details: { issues },
  });
}
