/** One server-sent event. */
export interface ServerSentEvent {
  /** `message` when the stream names none. */
  event: string;
  data: string;
  id?: string;
}

// A line ends at CR, LF or CRLF; a CR at the end of a chunk may be the first half of a CRLF.
const LINE_END = /\r\n|\r(?!$)|\n/;

/**
 * The events of a `text/event-stream` body, in order. `EventSource` cannot send an
 * `Authorization` header, so the page reads its streams with `fetch` and this parser. Comment
 * lines (heartbeats) are skipped; the stream ends when the body does or the fetch is aborted.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let event: ServerSentEvent = { event: 'message', data: '' };
  let dataLines: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const lines = (pending + decoder.decode(value, { stream: true })).split(LINE_END);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          // A blank line ends the event; one without data (only comments) is not dispatched.
          if (dataLines.length > 0) yield { ...event, data: dataLines.join('\n') };
          event = { event: 'message', data: '' };
          dataLines = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') dataLines.push(value);
        else if (field === 'event') event.event = value;
        else if (field === 'id') event.id = value;
      }
    }
  } finally {
    // Stops the download when the consumer leaves early (a `break`, an exception).
    await reader.cancel().catch(() => {});
  }
}
