import type { Hook } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { apiError } from '../http/api-error.js';
import type { ServerEnv } from '../server-env.js';

// "body.content: Too small…; query.limit: …": where and what, without echoing the input back.
function describeIssues(target: string, error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[target, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
}

/**
 * Answers an invalid request before its handler runs: 400 `INVALID_ID` when only ids are wrong (the
 * `id` path parameter, a body's `id`), else 400 `INVALID_ARGUMENT`.
 */
export const validationHook: Hook<unknown, ServerEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  const target = result.target === 'json' ? 'body' : result.target;
  const onlyIds = result.error.issues.every((issue) => issue.path.at(-1) === 'id');
  return apiError(c, 400, onlyIds ? 'INVALID_ID' : 'INVALID_ARGUMENT', describeIssues(target, result.error));
};
