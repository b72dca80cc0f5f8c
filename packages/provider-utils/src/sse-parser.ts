import { LineSplitter } from './line-splitter.js';

/**
 * One server-sent event. `event` and `retry` are there when the event set them; `id` is the last
 * event id, which an `id` field sets for its event and every later one (an empty `id` clears it).
 */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

const COLON = 0x3a;
const SPACE = 0x20;

/**
 * An incremental `text/event-stream` parser following the WHATWG rules: LF, CRLF or CR line
 * breaks, multi-line `data`, comments, a leading BOM, unknown fields ignored, chunk boundaries at
 * any byte, the last event id carried over to later events. As the spec says, an event the stream
 * ended without its terminating blank line is dropped: it means a cut connection, and its `data`
 * may be truncated.
 */
export class SseParser {
  private readonly lines = new LineSplitter();
  private data: string | undefined;
  private eventType: string | undefined;
  private lastEventId = '';
  private retry: number | undefined;

  /** The events completed by `chunk`. */
  push(chunk: Uint8Array | string): SseEvent[] {
    return this.interpret(this.lines.push(chunk));
  }

  /** The events left when the stream ends; an event still missing its blank line is dropped. */
  end(): SseEvent[] {
    const events = this.interpret(this.lines.end());
    this.reset();
    return events;
  }

  private interpret(lines: readonly string[]): SseEvent[] {
    const events: SseEvent[] = [];
    for (const line of lines) {
      if (line === '') this.dispatch(events);
      else if (line.charCodeAt(0) !== COLON) this.field(line);
    }
    return events;
  }

  private field(line: string): void {
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value =
      colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    switch (name) {
      case 'data':
        this.data = this.data === undefined ? value : `${this.data}\n${value}`;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
    }
  }

  private dispatch(events: SseEvent[]): void {
    if (this.data !== undefined) {
      const event: SseEvent = { data: this.data };
      if (this.eventType !== undefined && this.eventType !== '') event.event = this.eventType;
      if (this.lastEventId !== '') event.id = this.lastEventId;
      if (this.retry !== undefined) event.retry = this.retry;
      events.push(event);
    }
    this.reset();
  }

  /** Clears the event being built; the last event id stays. */
  private reset(): void {
    this.data = undefined;
    this.eventType = undefined;
    this.retry = undefined;
  }
}

/** The events of a chunked `text/event-stream` body (see `SseParser`). */
export async function* parseSse(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseParser();
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}
