import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockStreamFrame, MockStreamFraming } from './mock-provider-protocol.js';

/** Reads the whole request body as UTF-8 text. */
export async function readBodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The parsed JSON body; the raw text when it is not JSON, `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Lower-case header names with repeated values joined, as `RecordedRequest.headers` promises. */
export function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Resolves after `ms`, or early (without error) when `signal` aborts: the client went away. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

type WrittenFraming = Exclude<MockStreamFraming, 'json-array'>;

export const STREAM_CONTENT_TYPES: Record<WrittenFraming, string> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  chunked: 'text/plain; charset=utf-8',
};

/** One frame as it goes on the wire; `event` is SSE's only (an NDJSON line carries its own type). */
export function serializeFrame(framing: WrittenFraming, frame: MockStreamFrame, lineEnding: string): string {
  if (framing === 'ndjson') return `${frame.data}${lineEnding}`;
  if (framing === 'chunked') return frame.data;
  const event = frame.event === undefined ? '' : `event: ${frame.event}${lineEnding}`;
  return `${event}data: ${frame.data}${lineEnding}${lineEnding}`;
}

/**
 * Splits a captured SSE body into its events, keeping every byte (line endings included), so a
 * replay is byte-identical while cuts and delays still fall between events.
 */
export function splitRawSse(raw: string): string[] {
  return raw.split(/(?<=\r\n\r\n|\n\n|\r\r)/).filter((event) => event !== '');
}

export interface StreamWriteOptions {
  contentType: string;
  chunkDelayMs?: number;
  cutAfterEvents?: number;
  malformedAfterEvents?: number;
  /** The serialised malformed event to send for `malformedAfterEvents`. */
  malformedEvent: string;
  signal: AbortSignal;
  /** Called just before a `cutAfterEvents` cut destroys the connection. */
  onCut?: () => void;
}

// Waits until the bytes reached the socket, so a cut right after them still delivers them.
const write = (response: ServerResponse, text: string): Promise<void> =>
  new Promise((resolve) => response.write(text, () => resolve()));

/**
 * Streams serialised events with the script's timing and faults: a cut destroys the connection
 * without a terminal event (the client sees a network error mid-stream); a malformed line is
 * followed by a clean end of the body.
 */
export async function writeStreamEvents(
  response: ServerResponse,
  events: string[],
  headers: Record<string, string>,
  options: StreamWriteOptions,
): Promise<void> {
  response.writeHead(200, {
    ...headers,
    'content-type': options.contentType,
    'cache-control': 'no-cache',
  });
  response.flushHeaders();
  for (let index = 0; index <= events.length; index += 1) {
    if (options.signal.aborted) return;
    if (index === options.cutAfterEvents) {
      options.onCut?.();
      response.destroy();
      return;
    }
    if (index === options.malformedAfterEvents) {
      await write(response, options.malformedEvent);
      break;
    }
    const event = events[index];
    if (event === undefined) break;
    if (index > 0) await pause(options.chunkDelayMs ?? 0, options.signal);
    await write(response, event);
  }
  response.end();
}
