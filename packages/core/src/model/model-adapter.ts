import type { AgentOutput } from '../agent-output/agent-output.js';
import type { FinishReason } from '../agent-output/finish-reason.js';
import type { TokenUsage } from '../agent-output/token-usage.js';
import type { ModelAssistantMessage, ModelMessage } from '../messages/model-message.js';
import type { ProviderMetadata } from '../messages/provider-metadata.js';

/** A JSON Schema object (draft 2020-12 or 7), as providers accept for tool parameters. */
export type JsonSchema = Record<string, unknown>;

/** A tool as the model sees it. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object; adapters clean it to what their provider accepts. */
  inputSchema: JsonSchema;
}

/** `auto` (default): the model decides; `required`: it must call some tool; or one named tool. */
export type ModelToolChoice = 'auto' | 'none' | 'required' | { toolName: string };

/** Generation settings every adapter understands; unset means the provider's default. */
export interface ModelSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
}

/**
 * Structured output: the model answers with one JSON value matching `schema` and nothing else.
 * Adapters use their provider's native mode (OpenAI `json_schema` strict, Gemini `responseSchema`,
 * Anthropic structured outputs or a forced tool) and return the JSON as the message's text; the
 * caller parses and validates it (`chatToolLoop`, `runtime.chat({ output })`).
 */
export interface ModelOutputFormat {
  type: 'json';
  /** JSON Schema of the answer; adapters clean it to what their provider accepts. */
  schema: JsonSchema;
  /** A name for the schema (providers that want one get `output` when absent). */
  name?: string;
  description?: string;
}

/** One model call. */
export interface ModelRequest {
  /** The conversation so far, system prompt first (adapters move it where their provider wants). */
  messages: ModelMessage[];
  tools?: ModelToolDefinition[];
  toolChoice?: ModelToolChoice;
  /** Ask for structured output instead of prose (see `ModelOutputFormat`). */
  output?: ModelOutputFormat;
  settings?: ModelSettings;
  /** Provider-specific options, namespaced like `providerMetadata`: `{ anthropic: { thinking } }`. */
  providerOptions?: ProviderMetadata;
  /** Aborting ends the call with `LLM_ABORTED`. */
  signal?: AbortSignal;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string>;
}

/** The outcome of one model call. */
export interface ModelResult {
  /**
   * The assistant's message: text and/or tool calls (JSON-string arguments), reasoning and
   * `providerMetadata` for replay — ready to append to the next request.
   */
  message: ModelAssistantMessage;
  usage: TokenUsage;
  finishReason: FinishReason;
  /** The provider's own finish reason (`end_turn`, `STOP`, `length`, …). */
  rawFinishReason?: string;
  /** The provider's id for this response, when it gives one. */
  responseId?: string;
  /** The model that actually answered (may differ from the requested alias). */
  modelId?: string;
}

/**
 * A streaming call. Iterating never throws: every started block is closed, and the last event is
 * always one `finish`. On failure the stream emits an `error` event (`fatal: true`) and then
 * `finish` with reason `error` (or `aborted` when the request's signal fired), and `result`
 * rejects with the `CairnError`; otherwise `result` resolves after the last event.
 */
export interface ModelStream extends AsyncIterable<AgentOutput> {
  readonly result: Promise<ModelResult>;
}

/** What an adapter (and the model behind it) can do; callers adapt instead of failing. */
export interface ModelCapabilities {
  streaming: boolean;
  toolCalls: boolean;
  parallelToolCalls: boolean;
  /** Produces reasoning blocks. */
  reasoning: boolean;
  /**
   * Media types of the content parts the model takes (`image/*` for any image, `application/pdf`);
   * absent or empty: text only. Adapters refuse other parts with `UNSUPPORTED_CONTENT` before sending.
   */
  inputMediaTypes?: readonly string[];
  /** Takes `ModelRequest.output` (structured output). */
  structuredOutput?: boolean;
  /** Context window in tokens, when known. */
  contextWindowTokens?: number;
  maxOutputTokens?: number;
}

/**
 * A model provider behind one interface. Requests are OpenAI-shaped messages + JSON-Schema tools;
 * results and stream events are normalised. Failures are `CairnError`s with `LLM_*` codes and
 * retry advice (`retryable`, `retryAfterMs`).
 */
export interface ModelAdapter {
  /** `openai`, `anthropic`, `gemini`, or the name of a custom adapter. */
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  generate(request: ModelRequest): Promise<ModelResult>;
  stream(request: ModelRequest): ModelStream;
}
