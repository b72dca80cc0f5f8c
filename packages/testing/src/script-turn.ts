import type { TokenUsage } from '@cairn/core';

/** The finish reasons a script can ask for; `aborted`/`error` come from faults and aborts instead. */
export type ScriptFinish = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** One tool call the scripted model makes. */
export interface ScriptToolCall {
  /** The provider's call id; generated when absent (Gemini's wire format never carries one). */
  id?: string;
  name: string;
  /** An object, or a raw string to send exactly (e.g. deliberately invalid JSON). */
  arguments: Record<string, unknown> | string;
}

/** An HTTP failure instead of an answer. */
export interface ScriptFault {
  status: number;
  /** Replaces the provider's usual message for this status. */
  message?: string;
  /** Sent as `retry-after` (seconds). */
  retryAfterSeconds?: number;
  /** Sent as `retry-after-ms`. */
  retryAfterMs?: number;
  /** Answer with the provider's real "context too long" error (use status 400). */
  contextOverflow?: boolean;
}

/** One model reply in a script, shared by `ScriptedModel` and the mock provider servers. */
export interface ScriptTurn {
  reasoning?: string;
  text?: string;
  toolCalls?: ScriptToolCall[];
  usage?: Partial<TokenUsage>;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finish?: ScriptFinish;
  /** Characters (code points) per streamed text, reasoning or arguments chunk; default 8. */
  chunkSize?: number;
  /** Pause between streamed events. */
  chunkDelayMs?: number;
  /** Pause before answering at all (before the response headers). */
  delayMs?: number;
  fault?: ScriptFault;
  /** Streaming only: destroy the connection after this many SSE events, without a terminal event. */
  cutAfterEvents?: number;
  /** Streaming only: after this many SSE events send a `data:` line that is not JSON, then end. */
  malformedAfterEvents?: number;
  /** Streaming only: replay exactly this SSE body (captured fixtures); the other content fields are ignored. */
  rawSse?: string;
}

/** What a mock server received; kept in `MockProviderServer.requests` in arrival order. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** The request target as sent, query included (Gemini's `?alt=sse`). */
  url: string;
  /** Lower-case header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The parsed JSON body (the raw text when it is not JSON; `undefined` when empty). */
  body: unknown;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
  /**
   * When (`Date.now()`) the client went away before the answer was complete: it closed the
   * connection, e.g. because the caller aborted. Unset while the answer is under way, when it
   * completed, and when the server cut the connection itself (`cutAfterEvents`).
   */
  closedAt?: number;
}

/** The data `'{"oops": this is not JSON'` that `malformedAfterEvents` sends, so tests can look for it. */
export const MALFORMED_SSE_DATA = '{"oops": this is not JSON';
