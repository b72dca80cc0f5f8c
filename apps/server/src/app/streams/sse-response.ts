import { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { ServerEnv } from '../server-env.js';
import { type SseSink, type SseStreamLimits, SseWriter } from './sse-writer.js';

// The header by which @hono/node-server learns that the handler answered on the connection itself.
const ALREADY_SENT_HEADER = [...RESPONSE_ALREADY_SENT.headers.keys()][0] as string;

/** The connection's own response, when the app runs on @hono/node-server (HTTP/1.1). */
function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  // Not HTTP/2's response (it refuses connection headers): hono's web stream serves that.
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}

/** Text written straight to the connection: one `write` per event, `drain` for backpressure. */
class NodeSseSink implements SseSink {
  closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    private readonly response: ServerResponse,
    private readonly notOurs: boolean,
  ) {
    // The client may have gone before the stream started.
    this.closed = notOurs || response.destroyed;
    response.once('close', () => {
      this.closed = true;
      for (const listener of this.closeListeners.splice(0)) listener();
    });
  }

  write(text: string): boolean {
    return this.response.write(text);
  }

  drained(): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.once('drain', done);
      this.response.once('close', done);
    });
  }

  destroy(): void {
    if (!this.notOurs) this.response.destroy();
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  end(): void {
    if (!this.notOurs && !this.response.writableEnded) this.response.end();
  }
}

/** Text written to hono's web stream (`app.request()`, other runtimes): each write waits for the reader. */
class WebSseSink implements SseSink {
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly stream: SSEStreamingApi,
    private readonly closeConnection: () => void,
  ) {}

  get closed(): boolean {
    return this.stream.aborted || this.stream.closed;
  }

  write(text: string): boolean {
    // Never rejects: hono swallows write errors (the client went away; `onAbort` tells).
    this.last = this.stream.write(text).then(() => {});
    return false;
  }

  drained(): Promise<void> {
    return this.last;
  }

  destroy(): void {
    this.closeConnection();
    this.stream.abort();
  }

  onClose(listener: () => void): void {
    this.stream.onAbort(listener);
  }
}

/**
 * Answers request `c` with an event stream that `produce` writes through an `SseWriter` (see it for
 * `limits`); the stream ends when `produce` settles. On @hono/node-server the events go straight to
 * the connection, without a web stream between: the headers are written once every middleware has
 * seen the response (CORS, request id, rate limit, …), and node-server is told the answer is sent.
 * Anywhere else it is hono's `streamSSE`. A `produce` that throws closes the connection; `onError`
 * hears why.
 */
export function sseResponse(
  c: Context<ServerEnv>,
  limits: SseStreamLimits | undefined,
  produce: (writer: SseWriter) => Promise<void>,
  onError: (error: unknown) => void,
): Response {
  // Proxies such as nginx would otherwise buffer the stream.
  c.header('X-Accel-Buffering', 'no');
  const outgoing = nodeResponse(c);
  if (outgoing === undefined) {
    return streamSSE(
      c,
      (stream) => {
        const writer = new SseWriter(new WebSseSink(stream, () => {}), limits);
        return produce(writer).finally(() => writer.close());
      },
      async (error) => onError(error),
    );
  }
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-cache');
  c.header('Connection', 'keep-alive');
  c.header(ALREADY_SENT_HEADER, 'true');
  c.set('onEventStreamEnd', (listener) => {
    if (outgoing.destroyed || outgoing.writableFinished) listener();
    else outgoing.once('close', listener);
  });
  // The middleware returns to node-server within this turn of the event loop (they only set headers
  // after the handler): the next one writes the head as they left it.
  setImmediate(() => {
    const response = c.res;
    // An error answered by middleware instead (never expected) is node-server's to send.
    const ours = !outgoing.headersSent && response.headers.has(ALREADY_SENT_HEADER);
    if (ours && !outgoing.destroyed) {
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        if (name !== ALREADY_SENT_HEADER) headers[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      outgoing.writeHead(response.status, headers);
      outgoing.flushHeaders();
    }
    const sink = new NodeSseSink(outgoing, !ours);
    // Whatever happened to the connection, `produce` runs: a turn goes on without its stream.
    const writer = new SseWriter(sink, limits);
    produce(writer).then(
      () => {
        writer.close();
        sink.end();
      },
      (error: unknown) => {
        onError(error);
        writer.disconnect();
      },
    );
  });
  // node-server sends its own light Response without looking for the already-sent header: reading
  // the body makes it a full Response, which node-server leaves alone when the header says so.
  const response = c.body(null);
  void response.body;
  return response;
}
