import type { ResolvedScriptTurn } from '../resolve-script-turn.js';
import type { ScriptFinish } from '../script-turn.js';

/** The providers whose model adapters the conformance kit checks against the built-in mock servers. */
export type MockProvider = 'openai' | 'anthropic' | 'gemini';

/**
 * The built-in wire protocols: the adapters' providers and OpenAI's Responses API
 * (`openai-responses`: what Codex CLI speaks).
 */
export type MockServerProvider = MockProvider | 'openai-responses';

/**
 * How a streamed answer is written: `sse` (server-sent events), `ndjson` (one JSON value per
 * line), `chunked` (each frame's `data` written as is, one HTTP chunk each) or `json-array` (one
 * JSON array of the frames' parsed `data`, as Gemini answers without `alt=sse`).
 */
export type MockStreamFraming = 'sse' | 'ndjson' | 'chunked' | 'json-array';

/** One piece of a streamed answer before framing; `event` is used by SSE only. */
export interface MockStreamFrame {
  event?: string;
  data: string;
}

/** How the server should answer a request the protocol recognises. */
export interface MockRoute {
  /** The client asked for a streamed answer. */
  stream: boolean;
  /** How to write a streamed answer (default `sse`). */
  framing?: MockStreamFraming;
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

/**
 * One provider's wire format; `startMockProviderServer` does the HTTP, framing, faults and timing.
 * Implement it to mock your own API (the built-in `openAIMockProtocol`, `anthropicMockProtocol`,
 * `geminiMockProtocol` and `openAIResponsesMockProtocol` are written against this interface only).
 */
export interface MockProviderProtocol {
  /** The protocol's name: the server's `provider` and the conformance suite's context. */
  readonly provider: string;
  /** Appended to the server origin to form the `baseURL` the adapter takes (`''` for none). */
  readonly baseUrlPath: string;
  /** Line ending of the SSE and NDJSON bodies (default `\n`; Gemini's servers use CRLF). */
  readonly lineEnding?: '\n' | '\r\n';
  /** The `event:` name put on a malformed SSE line, for protocols that name every event. */
  readonly malformedEvent?: string;
  /**
   * The API's own finish reason for each scripted finish, as its responses carry it: the
   * conformance kit checks the adapter keeps it as `rawFinishReason`.
   */
  readonly rawFinishReasons: Readonly<Record<ScriptFinish, string>>;
  /**
   * The API sends each tool call's arguments whole, in one frame (Gemini): the conformance kit
   * then asks for one `tool_input_delta` per call rather than several.
   */
  readonly toolArgumentsWhole?: boolean;
  /** How the server answers a request, or `undefined` for a 404. */
  route(method: string, path: string, query: URLSearchParams, body: unknown): MockRoute | undefined;
  toolCallId(requestIndex: number, callIndex: number): string;
  /** The non-streaming JSON body. */
  response(context: MockAnswerContext): unknown;
  /** The streamed answer, every frame in order, terminal frames included. */
  streamFrames(context: MockAnswerContext): MockStreamFrame[];
  /** The provider's error JSON for a status (and the real context-length message when asked). */
  errorBody(error: MockErrorInput): unknown;
  /**
   * The real API's 400 message when the body breaks one of its rules adapters commonly break.
   * `route` is the request's route, for rules that depend on the model (Gemini 3's signatures).
   */
  requestProblem?(body: unknown, route?: MockRoute): string | undefined;
  /** Extra headers the provider sends with every answer (request ids). */
  responseHeaders?(requestIndex: number): Record<string, string>;
  /**
   * The opaque reasoning signature an answer to `turn` carries, for APIs whose adapters must send
   * it back with the conversation: the conformance kit checks a reloaded conversation replays it.
   */
  reasoningSignature?(turn: ResolvedScriptTurn): string;
}
