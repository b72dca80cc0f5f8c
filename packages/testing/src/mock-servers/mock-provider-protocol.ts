import type { ResolvedScriptTurn } from '../resolve-script-turn.js';

/** The providers whose model adapters the conformance kit checks against the mock server. */
export type MockProvider = 'openai' | 'anthropic' | 'gemini';

/**
 * The wire protocols the mock server speaks: the adapters' providers and OpenAI's Responses API
 * (`openai-responses`: what Codex CLI speaks).
 */
export type MockServerProvider = MockProvider | 'openai-responses';

/** One server-sent event before serialisation. */
export interface SseFrame {
  event?: string;
  data: string;
}

/** How the server should answer a request the protocol recognises. */
export interface MockRoute {
  /** The client asked for a streamed answer. */
  stream: boolean;
  /** Stream as SSE; otherwise a streamed answer is one JSON array of the chunks (Gemini without `alt=sse`). */
  sse: boolean;
  /** The model named by the request, echoed in the answer. */
  model: string;
}

/** Everything a protocol needs to write one answer. */
export interface MockAnswerContext {
  turn: ResolvedScriptTurn;
  model: string;
  /** 0-based position of the request among the answered ones; makes ids unique and stable. */
  requestIndex: number;
  body: unknown;
}

/** What the context-overflow and status faults need to build a provider's error body. */
export interface MockErrorInput {
  status: number;
  message?: string;
  contextOverflow?: boolean;
  retryAfterMs?: number;
}

/** One provider's wire format; the shared server does the HTTP, faults and timing. */
export interface MockProviderProtocol {
  readonly provider: MockServerProvider;
  /** Appended to the server origin to form the `baseURL` the official SDK takes. */
  readonly baseUrlPath: string;
  /** Line ending of the SSE body (Gemini's servers use CRLF). */
  readonly sseLineEnding: '\n' | '\r\n';
  /** The `event:` name put on a malformed line, for protocols that name every event. */
  readonly malformedEvent?: string;
  route(method: string, path: string, query: URLSearchParams, body: unknown): MockRoute | undefined;
  toolCallId(requestIndex: number, callIndex: number): string;
  /** The non-streaming JSON body. */
  response(context: MockAnswerContext): unknown;
  /** The streamed answer, every event in order, terminal events included. */
  streamFrames(context: MockAnswerContext): SseFrame[];
  /** The provider's error JSON for a status (and the real context-length message when asked). */
  errorBody(error: MockErrorInput): unknown;
  /** The real API's 400 message when the body breaks one of its rules adapters commonly break. */
  requestProblem(body: unknown): string | undefined;
  /** Extra headers the provider sends with every answer (request ids). */
  responseHeaders?(requestIndex: number): Record<string, string>;
}
