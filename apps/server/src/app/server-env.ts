import type { Telemetry } from '@cairn/core';
import type { OpenAPIHono } from '@hono/zod-openapi';

/** A pino-compatible logger (only these methods are used); given ids and codes, never bodies or tokens. */
export interface ServerLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/** What handlers leave on the context for the request log. */
export interface ServerEnv {
  Variables: {
    /** The `error.code` of an error response, so the request log can name it. */
    errorCode?: string;
    /** The request's telemetry scope (`traceRequests`): turns it starts are traced as its children. */
    telemetry?: Telemetry;
  };
}

export type ServerApp = OpenAPIHono<ServerEnv>;
