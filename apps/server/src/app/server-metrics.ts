import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ServerEnv } from './server-env.js';

/** How a turn ended: answered, stored as failed (a model error), aborted, or thrown (the store failing). */
export type TurnOutcome = 'success' | 'failed' | 'aborted' | 'error';

/** Which server-sent event streams are open: chat turns, live message feeds, anything else. */
export type StreamKind = 'turn' | 'events' | 'other';

export interface ServerMetricsOptions {
  /** Turns running or queued in this instance, read at each scrape. */
  activeTurns: () => number;
  /** prom-client's process metrics (CPU, memory, handles, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

export interface ServerMetrics {
  /** This app's own registry (never prom-client's global one: two apps in a process do not collide). */
  readonly registry: Registry;
  /** Counts and times every request; mount first on `*`. */
  readonly middleware: MiddlewareHandler<ServerEnv>;
  /** Counts a turn begun (chat, run or agent session): the turn registry calls it. */
  turnStarted(): void;
  /** Counts a finished turn. */
  turnFinished(outcome: TurnOutcome): void;
  /** Passes a turn's promise through, counting how it ended. */
  trackTurn<T extends TurnResultLike>(turn: Promise<T>): Promise<T>;
}

/** What `trackTurn` reads of a turn's result (a `ChatResult` fits). */
export interface TurnResultLike {
  success: boolean;
  error?: { code: string } | undefined;
}

// Keys are `METHOD route-pattern`, as Hono registers them.
const TURN_ROUTE = 'POST /v1/conversations/:id/messages';
const STREAM_KINDS: Record<string, StreamKind> = {
  [TURN_ROUTE]: 'turn',
  'GET /v1/conversations/:id/events': 'events',
};
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request no route matched (so arbitrary paths never become labels). */
export const UNMATCHED_ROUTE = 'unmatched';

export const turnOutcome = (result: TurnResultLike): TurnOutcome =>
  result.success ? 'success' : result.error?.code === 'LLM_ABORTED' ? 'aborted' : 'failed';

/**
 * The server's Prometheus metrics, in a registry of its own: requests by method, route pattern and
 * status (never the raw path, which holds ids), their latency to the response head, turns started
 * and finished, turns running, open event streams, rate-limited requests and the process metrics.
 */
export function createServerMetrics(options: ServerMetricsOptions): ServerMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'cairn_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'cairn_http_request_duration_seconds',
    help: 'Time to the response head (for event streams: until the stream opened), by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const turnsStarted = new Counter({
    name: 'cairn_turns_started_total',
    help: 'Turns begun (chat, run and agent-session turns; not those refused by validation, auth or a limit)',
    registers,
  });
  const turnsFinished = new Counter({
    name: 'cairn_turns_finished_total',
    help: 'Turns ended, by outcome: success, failed (stored failure), aborted, error (thrown)',
    labelNames: ['outcome'] as const,
    registers,
  });
  new Gauge({
    name: 'cairn_turns_active',
    help: 'Chat turns running or queued behind their conversation in this instance',
    registers,
    collect() {
      this.set(options.activeTurns());
    },
  });
  const streams = new Gauge({
    name: 'cairn_sse_streams_open',
    help: 'Server-sent event streams open, by kind: turn, events (live message feeds), other',
    labelNames: ['kind'] as const,
    registers,
  });
  for (const kind of ['turn', 'events'] as const) streams.set({ kind }, 0);
  const rateLimited = new Counter({
    name: 'cairn_rate_limited_requests_total',
    help: 'Requests refused with 429 RATE_LIMITED',
    registers,
  });

  const middleware: MiddlewareHandler<ServerEnv> = async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER';
    const route = routePattern(matchedRoutes(c));
    const status = c.res.status;
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
    const key = `${method} ${route}`;
    if (c.get('errorCode') === 'RATE_LIMITED') rateLimited.inc();
    // HEAD answers drop the body without reading it: such a stream would never count as closed.
    // (`c.res.body` is read below only: it turns @hono/node-server's light answer into a full one.)
    if (method === 'HEAD' || !isEventStream(c.res.headers.get('content-type'))) return;
    const kind = { kind: STREAM_KINDS[key] ?? 'other' };
    // A stream written straight to the connection says when it ends; a web stream is watched.
    const onEventStreamEnd = c.get('onEventStreamEnd');
    if (onEventStreamEnd !== undefined) {
      streams.inc(kind);
      onEventStreamEnd(() => streams.dec(kind));
    } else if (c.res.body !== null) {
      streams.inc(kind);
      c.res = new Response(
        onStreamEnd(c.res.body, () => streams.dec(kind)),
        c.res,
      );
    }
  };

  const turnFinished = (outcome: TurnOutcome) => turnsFinished.inc({ outcome });
  return {
    registry,
    middleware,
    turnStarted: () => turnsStarted.inc(),
    turnFinished,
    trackTurn: (turn) =>
      turn.then(
        (result) => {
          turnFinished(turnOutcome(result));
          return result;
        },
        (error: unknown) => {
          turnFinished('error');
          throw error;
        },
      ),
  };
}

/**
 * The pattern of the route that answers the request: the first match that is not middleware (Hono
 * registers middleware as `ALL`, and runs matches in order until a handler answers). Also when
 * middleware answered first (a 401), so a refusal is counted against the route it refused.
 */
function routePattern(routes: ReadonlyArray<{ method: string; path: string }>): string {
  return routes.find((route) => route.method !== 'ALL')?.path ?? UNMATCHED_ROUTE;
}

const isEventStream = (contentType: string | null) => /^text\/event-stream\b/i.test(contentType ?? '');

/** The same stream, calling `onEnd` once when it is read to the end, fails or is cancelled (the client left). */
function onStreamEnd(body: ReadableStream<Uint8Array>, onEnd: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
