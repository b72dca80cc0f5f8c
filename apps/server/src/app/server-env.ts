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
    /**
     * Set by an event stream written straight to the connection (`sseResponse`), whose response has no
     * body to watch: calls `listener` once the stream ends (metrics count open streams by it).
     */
    onEventStreamEnd?: (listener: () => void) => void;
  };
}

export type ServerApp = OpenAPIHono<ServerEnv>;
