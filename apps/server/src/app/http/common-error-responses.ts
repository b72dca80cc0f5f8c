import type { ServerApp } from '../server-env.js';

type OpenAPIDocument = ReturnType<ServerApp['getOpenAPI31Document']>;

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } };
const answer = (description: string, extra: object = {}) => ({
  description,
  content: errorContent,
  ...extra,
});

/**
 * The answers every `/v1` operation can give besides its own, which middleware (auth, the body
 * limit, the rate limit, draining) and the error handler produce rather than the route: added to the document here, so each
 * route does not have to repeat them and none can forget one.
 */
export function withCommonErrorResponses(
  document: OpenAPIDocument,
  options: { auth: boolean; rateLimited: boolean },
): OpenAPIDocument {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/v1/')) continue;
    for (const operation of Object.values(item ?? {})) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const responses = operation.responses as Record<string, unknown>;
      const add = (status: string, response: object) => {
        responses[status] ??= response;
      };
      if (options.auth) add('401', answer('Missing or wrong bearer token (`WWW-Authenticate: Bearer`)'));
      if ('requestBody' in operation) {
        add('413', answer('The body is over the size limit'));
        add('415', answer('The body is not declared as `application/json`'));
      }
      if (options.rateLimited) add('429', answer('Rate limited (`Retry-After`, `RateLimit-*`)'));
      add('500', answer('Internal error (no details are given)'));
      add('503', answer('The store is unavailable, or the server is shutting down (`Retry-After`)'));
      const limited = responses['429'] as { headers?: object } | undefined;
      if (limited !== undefined) {
        limited.headers = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } };
      }
    }
  }
  return document;
}
