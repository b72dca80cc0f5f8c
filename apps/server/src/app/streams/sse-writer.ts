import type { Context } from 'hono';
import type { SSEMessage, SSEStreamingApi } from 'hono/streaming';

/** How much a client that does not read may cost before it is disconnected. */
export interface SseStreamLimits {
  /**
   * Bytes of events waiting for a client, besides the one being written: when an event would take the
   * queue past this, the client is disconnected as too slow. (An event larger than this still goes, when
   * nothing else waits.) Default 4 MiB.
   */
  maxBufferedBytes?: number;
  /** How long one write may wait for the client to read before it is disconnected. Default 30 s. */
  stallTimeoutMs?: number;
}

const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const DEFAULT_STALL_TIMEOUT_MS = 30_000;

/** One server-sent event as text (what hono's `writeSSE` sends). */
export function encodeSse(message: SSEMessage): string {
  for (const field of [message.event, message.id]) {
    if (field !== undefined && /[\r\n]/.test(field)) throw new Error('SSE event and id must be one line');
  }
  const lines = [
    ...(message.event === undefined ? [] : [`event: ${message.event}`]),
    ...String(message.data)
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}`),
    ...(message.id === undefined ? [] : [`id: ${message.id}`]),
    ...(message.retry === undefined ? [] : [`retry: ${message.retry}`]),
  ];
  return `${lines.join('\n')}\n\n`;
}

interface Queued {
  text: string;
  bytes: number;
  done: () => void;
}

type Stream = Pick<SSEStreamingApi, 'write' | 'abort' | 'onAbort' | 'aborted'>;

/**
 * Writes a stream's events one at a time, so a client that reads slowly (or not at all) costs a bounded
 * amount of memory: hono's `stream.write` waits while the connection is backed up (@hono/node-server
 * waits for `drain`), events queue here meanwhile, and the client is disconnected when the queue would
 * pass `maxBufferedBytes` or one write waits longer than `stallTimeoutMs`. A disconnected `/events`
 * client resumes with `Last-Event-ID`; a turn goes on without its stream either way.
 *
 * `send` resolves once the event is handed to the connection (or dropped, the stream having ended): a
 * producer that can wait (the `/events` feed) awaits it, and so never queues more than one event; one
 * that cannot (a running turn) does not, and the byte limit applies.
 */
export class SseWriter {
  private readonly queue: Queued[] = [];
  private readonly idle: (() => void)[] = [];
  private readonly endListeners: (() => void)[] = [];
  private readonly maxBufferedBytes: number;
  private readonly stallTimeoutMs: number;
  // Bytes in `queue`: the event being written is no longer counted.
  private queuedBytes = 0;
  private writing: Queued | undefined;
  private ended = false;

  constructor(
    private readonly stream: Stream,
    limits: SseStreamLimits = {},
    /** Closes the connection itself: a stalled one would otherwise never see the stream end. */
    private readonly closeConnection: () => void = () => {},
  ) {
    this.maxBufferedBytes = limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.stallTimeoutMs = limits.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    stream.onAbort(() => this.end());
  }

  /** Whether the stream ended (the client went away or was disconnected): later events are dropped. */
  get closed(): boolean {
    return this.ended || this.stream.aborted;
  }

  send(message: SSEMessage): Promise<void> {
    return this.enqueue(encodeSse(message));
  }

  /** A comment (`: text`), sent only when nothing else waits: a keep-alive never piles up. */
  comment(text: string): void {
    if (this.queue.length === 0 && this.writing === undefined) void this.enqueue(`: ${text}\n\n`);
  }

  /** Resolves when everything queued is written, or the stream ended. */
  flush(): Promise<void> {
    if (this.closed || (this.queue.length === 0 && this.writing === undefined)) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Calls `listener` once when the stream ends, for whatever reason. */
  onEnd(listener: () => void): void {
    if (this.closed) listener();
    else this.endListeners.push(listener);
  }

  /** Ends the stream now, closing the connection (a client too slow). */
  disconnect(): void {
    if (this.ended) return;
    this.closeConnection();
    this.stream.abort();
    this.end();
  }

  private enqueue(text: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const bytes = Buffer.byteLength(text);
    if (this.queue.length > 0 && this.queuedBytes + bytes > this.maxBufferedBytes) {
      this.disconnect();
      return Promise.resolve();
    }
    return new Promise<void>((done) => {
      this.queue.push({ text, bytes, done });
      this.queuedBytes += bytes;
      void this.pump();
    });
  }

  private async pump() {
    if (this.writing !== undefined) return;
    for (let next = this.queue.shift(); next !== undefined && !this.closed; next = this.queue.shift()) {
      this.writing = next;
      this.queuedBytes -= next.bytes;
      const stalled = setTimeout(() => this.disconnect(), this.stallTimeoutMs);
      stalled.unref();
      // Never rejects: hono swallows write errors (the client went away; `onAbort` tells).
      await this.stream.write(next.text);
      clearTimeout(stalled);
      next.done();
    }
    this.writing = undefined;
    if (this.queue.length === 0) this.settleIdle();
  }

  private end() {
    if (this.ended) return;
    this.ended = true;
    this.writing?.done();
    for (const queued of this.queue.splice(0)) queued.done();
    this.queuedBytes = 0;
    this.settleIdle();
    for (const listener of this.endListeners.splice(0)) listener();
  }

  private settleIdle() {
    for (const resolve of this.idle.splice(0)) resolve();
  }
}

/**
 * A writer for a stream of request `c`, which can close the connection when it runs on @hono/node-server
 * (its `c.env.outgoing`); elsewhere, aborting the stream is all it can do.
 */
export function sseWriterFor(c: Context, stream: Stream, limits: SseStreamLimits | undefined): SseWriter {
  const env: unknown = c.env;
  const outgoing = (env as { outgoing?: { destroy?: () => void } } | undefined)?.outgoing;
  return new SseWriter(stream, limits, () => outgoing?.destroy?.());
}
