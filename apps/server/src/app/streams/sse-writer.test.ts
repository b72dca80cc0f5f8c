import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeSse, type SseSink, SseWriter } from './sse-writer.js';

/** A connection that takes `room` writes before it backs up, until `drain()`. */
class FakeSink implements SseSink {
  readonly written: string[] = [];
  closed = false;
  destroyed = false;
  private drainers: (() => void)[] = [];
  private closeListeners: (() => void)[] = [];

  constructor(private room = Number.POSITIVE_INFINITY) {}

  write(text: string): boolean {
    this.written.push(text);
    this.room -= 1;
    return this.room > 0;
  }

  drained(): Promise<void> {
    return new Promise((resolve) => this.drainers.push(resolve));
  }

  /** The client read everything: room for `room` more writes. */
  drain(room = Number.POSITIVE_INFINITY) {
    this.room = room;
    for (const resolve of this.drainers.splice(0)) resolve();
  }

  destroy(): void {
    this.destroyed = true;
    this.close();
  }

  close() {
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener();
    for (const resolve of this.drainers.splice(0)) resolve();
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }
}

const event = (data: string) => ({ event: 'e', data });
const settled = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('encodeSse', () => {
  it('writes what hono writeSSE writes: one data line per line of data', () => {
    // hono's own encoding (helper/streaming/sse.ts), the reference.
    const hono = (message: { event?: string; data: string; id?: string }) =>
      `${[
        ...(message.event === undefined ? [] : [`event: ${message.event}`]),
        ...message.data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`),
        ...(message.id === undefined ? [] : [`id: ${message.id}`]),
      ].join('\n')}\n\n`;
    const line = fc.string().filter((text) => !/[\r\n]/.test(text));
    fc.assert(
      fc.property(
        fc.record({ event: line, data: fc.string(), id: line }, { requiredKeys: ['data'] }),
        (message) => {
          expect(encodeSse(message)).toBe(hono(message));
        },
      ),
    );
  });

  it('refuses an event name or id of several lines', () => {
    expect(() => encodeSse({ event: 'a\nb', data: '' })).toThrow(/one line/);
  });
});

describe('SseWriter', () => {
  it('writes each event at once, in order, while the client keeps up', async () => {
    const sink = new FakeSink();
    const writer = new SseWriter(sink);
    await Promise.all(['1', '2', '3'].map((data) => writer.send(event(data))));
    expect(sink.written).toEqual(['event: e\ndata: 1\n\n', 'event: e\ndata: 2\n\n', 'event: e\ndata: 3\n\n']);
  });

  it('queues while the connection is backed up, and writes the queue in order once it drains', async () => {
    const sink = new FakeSink(1);
    const writer = new SseWriter(sink);
    void writer.send(event('1'));
    let secondSent = false;
    void writer.send(event('2')).then(() => {
      secondSent = true;
    });
    writer.comment('heartbeat');
    await settled();
    expect(sink.written).toHaveLength(1);
    expect(secondSent).toBe(false);
    const flushed = writer.flush();
    sink.drain();
    await flushed;
    expect(secondSent).toBe(true);
    expect(sink.written).toEqual(['event: e\ndata: 1\n\n', 'event: e\ndata: 2\n\n']);
  });

  it('disconnects a client when what waits for it would pass maxBufferedBytes', async () => {
    const sink = new FakeSink(1);
    const writer = new SseWriter(sink, { maxBufferedBytes: 30 });
    const ended = vi.fn();
    writer.onEnd(ended);
    void writer.send(event('first'));
    const queued = writer.send(event('x'.repeat(20)));
    void writer.send(event('y'.repeat(20)));
    await queued;
    expect(sink.destroyed).toBe(true);
    expect(ended).toHaveBeenCalledOnce();
    expect(writer.closed).toBe(true);
    void writer.send(event('later'));
    expect(sink.written).toHaveLength(1);
  });

  it('disconnects a client whose connection stays backed up past stallTimeoutMs', async () => {
    vi.useFakeTimers();
    const sink = new FakeSink(1);
    const writer = new SseWriter(sink, { stallTimeoutMs: 1_000 });
    void writer.send(event('1'));
    vi.advanceTimersByTime(999);
    expect(sink.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sink.destroyed).toBe(true);
    await expect(writer.flush()).resolves.toBeUndefined();
  });

  it('keeps a client that reads in time, and drops events once it went away', async () => {
    vi.useFakeTimers();
    const sink = new FakeSink(1);
    const writer = new SseWriter(sink, { stallTimeoutMs: 1_000 });
    void writer.send(event('1'));
    vi.advanceTimersByTime(900);
    sink.drain();
    await vi.advanceTimersByTimeAsync(900);
    expect(sink.destroyed).toBe(false);
    sink.close();
    expect(writer.closed).toBe(true);
    await writer.send(event('2'));
    expect(sink.written).toHaveLength(1);
  });

  it('keeps an idle stream alive with a comment every interval, until the stream ends', () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    const writer = new SseWriter(sink);
    writer.keepAlive('ka', 1_000);
    vi.advanceTimersByTime(3_000);
    expect(sink.written).toEqual([': ka\n\n', ': ka\n\n', ': ka\n\n']);
    writer.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3_000);
    expect(sink.written).toHaveLength(3);
  });

  it('stops the keep-alive when the client goes away, and starts none on an ended stream', () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    const writer = new SseWriter(sink);
    writer.keepAlive('ka', 1_000);
    sink.close();
    expect(vi.getTimerCount()).toBe(0);
    writer.keepAlive('ka', 1_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
