/** One server-sent event (comments are skipped). */
export interface SseEvent {
  event?: string;
  id?: string;
  data: string;
}

/** Reads the events of a `text/event-stream` response one at a time. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(response: Response) {
    if (response.body === null) throw new Error('SseReader: the response has no body');
    this.reader = response.body.getReader();
  }

  /** The next event, or undefined when the stream ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.search(/\r?\n\r?\n/);
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const event = parseBlock(block);
        if (event !== undefined) return event;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Events up to and including the first that matches `last` (or all, when the stream ends first). */
  async readUntil(last: (event: SseEvent) => boolean): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event !== undefined; event = await this.next()) {
      events.push(event);
      if (last(event)) break;
    }
    return events;
  }

  /** The next `count` events. */
  async take(count: number): Promise<SseEvent[]> {
    let seen = 0;
    return this.readUntil(() => ++seen === count);
  }

  /** Disconnects, as a client going away. */
  async close(): Promise<void> {
    await this.reader.cancel();
  }
}

function parseBlock(block: string): SseEvent | undefined {
  const data: string[] = [];
  const event: Partial<SseEvent> = {};
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event.event = value;
    else if (field === 'id') event.id = value;
  }
  if (data.length === 0 && event.event === undefined) return undefined;
  return { ...event, data: data.join('\n') };
}
