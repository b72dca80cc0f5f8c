import type { SSEMessage } from 'hono/streaming';

/** How much a client that does not read may cost before it is disconnected. */
export interface SseStreamLimits {
  /**
   * Bytes of events waiting for a client, besides what the connection already holds: when an event
   * would take the queue past this, the client is disconnected as too slow. (An event larger than this
   * still goes, when nothing else waits.) Default 4 MiB.
   */
  maxBufferedBytes?: number;
  /** How long one write may wait for the client to read before it is disconnected. Default 30 s. */
  stallTimeoutMs?: number;
}

const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const DEFAULT_STALL_TIMEOUT_MS = 30_000;
// Often enough for proxies that close idle connections after 30-60 s (a long tool run sends nothing).
const KEEP_ALIVE_MS = 15_000;
const LINE_BREAK = /\r\n|\r|\n/;
const SENT: Promise<void> = Promise.resolve();

/** One server-sent event as text (what hono's `writeSSE` sends). */
export function encodeSse(message: SSEMessage): string {
  const { event, id, retry } = message;
  for (const field of [event, id]) {
    if (field !== undefined && LINE_BREAK.test(field)) throw new Error('SSE event and id must be one line');
  }
  const data = String(message.data);
  // JSON.stringify never writes a raw line break: most events are one `data:` line.
  const lines = LINE_BREAK.test(data) ? data.split(LINE_BREAK).join('\ndata: ') : data;
  return (
    (event === undefined ? '' : `event: ${event}\n`) +
    `data: ${lines}\n` +
    (id === undefined ? '' : `id: ${id}\n`) +
    (retry === undefined ? '' : `retry: ${retry}\n`) +
    '\n'
  );
}

/**
 * Where an event stream's text goes: a connection (`node-sse-sink.ts`) or a web stream (anywhere else).
 * `write` hands the text over at once and says whether the client keeps up: `false` means it is backed
 * up, and nothing more should be written until `drained()` resolves.
 */
export interface SseSink {
  write(text: string): boolean;
  /** Resolves when the client has read what was written, or the stream ended. */
  drained(): Promise<void>;
  /** Closes the connection itself: a stalled one would otherwise never see the stream end. */
  destroy(): void;
  /** Calls `listener` once when the stream ends (the client went away, or it was closed). */
  onClose(listener: () => void): void;
  readonly closed: boolean;
}

interface Queued {
  text: string;
  bytes: number;
  done: () => void;
}

/**
 * Writes a stream's events in order, so a client that reads slowly (or not at all) costs a bounded
 * amount of memory: while the connection is backed up, events queue here, and the client is
 * disconnected when the queue would pass `maxBufferedBytes` or the connection stays backed up longer
 * than `stallTimeoutMs`. A client that keeps up costs one write per event, nothing more. A disconnected
 * `/events` client resumes with `Last-Event-ID`; a turn goes on without its stream either way.
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
  private queuedBytes = 0;
  // Set while the connection is backed up: the stall timer.
  private stalled: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly sink: SseSink,
    limits: SseStreamLimits = {},
  ) {
    this.maxBufferedBytes = limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.stallTimeoutMs = limits.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    sink.onClose(() => this.end());
  }

  /** Whether the stream ended (the client went away or was disconnected): later events are dropped. */
  get closed(): boolean {
    return this.ended || this.sink.closed;
  }

  send(message: SSEMessage): Promise<void> {
    return this.write(encodeSse(message));
  }

  /** Writes text already encoded as events (`encodeSse`). */
  write(text: string): Promise<void> {
    if (this.closed) return SENT;
    if (this.stalled === undefined) {
      if (!this.sink.write(text)) this.waitForDrain();
      return SENT;
    }
    const bytes = Buffer.byteLength(text);
    if (this.queue.length > 0 && this.queuedBytes + bytes > this.maxBufferedBytes) {
      this.disconnect();
      return SENT;
    }
    return new Promise<void>((done) => {
      this.queue.push({ text, bytes, done });
      this.queuedBytes += bytes;
    });
  }

  /** A comment (`: text`), sent only when the connection keeps up: a keep-alive never piles up. */
  comment(text: string): void {
    if (this.stalled === undefined) void this.write(`: ${text}\n\n`);
  }

  /** A `: text` comment every `everyMs` until the stream ends, so idle proxies keep the connection. */
  keepAlive(text: string, everyMs = KEEP_ALIVE_MS): void {
    if (this.closed) return;
    const timer = setInterval(() => this.comment(text), everyMs);
    timer.unref();
    this.onEnd(() => clearInterval(timer));
  }

  /** Resolves when everything queued is read by the client, or the stream ended. */
  flush(): Promise<void> {
    if (this.closed || this.stalled === undefined) return SENT;
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Calls `listener` once when the stream ends, for whatever reason. */
  onEnd(listener: () => void): void {
    if (this.closed) listener();
    else this.endListeners.push(listener);
  }

  /** The stream is done (its producer settled): later events are dropped, end listeners run. */
  close(): void {
    this.end();
  }

  /** Ends the stream now, closing the connection (a client too slow). */
  disconnect(): void {
    if (this.ended) return;
    this.sink.destroy();
    this.end();
  }

  private waitForDrain() {
    const stalled = setTimeout(() => this.disconnect(), this.stallTimeoutMs);
    stalled.unref();
    this.stalled = stalled;
    void this.sink.drained().then(() => {
      clearTimeout(stalled);
      this.stalled = undefined;
      this.writeQueued();
    });
  }

  private writeQueued() {
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      this.queuedBytes -= next.bytes;
      next.done();
      if (this.closed) continue;
      if (!this.sink.write(next.text)) {
        this.waitForDrain();
        return;
      }
    }
    this.settleIdle();
  }

  private end() {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.stalled);
    for (const queued of this.queue.splice(0)) queued.done();
    this.queuedBytes = 0;
    this.settleIdle();
    for (const listener of this.endListeners.splice(0)) listener();
  }

  private settleIdle() {
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
