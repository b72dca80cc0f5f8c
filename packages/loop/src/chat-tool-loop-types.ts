import type {
  AgentOutput,
  CairnError,
  CairnErrorCode,
  FinishReason,
  LayeredToolPolicy,
  LoopCompressionPipeline,
  MessageContent,
  ModelAdapter,
  ModelAssistantMessage,
  ModelMessage,
  ModelSettings,
  ModelToolChoice,
  OpenAIToolCall,
  ProviderMetadata,
  Telemetry,
  TokenUsage,
  ToolExecutionOptions,
  ToolHost,
  ToolOutputSource,
  ToolPolicy,
} from '@cairn/core';
import type { FailState } from './failing-call-tracker.js';
import type { StructuredOutput } from './structured-output.js';

/** Where the loop runs: handed to every tool call (`ToolContext`). */
export interface LoopContext {
  projectRoot?: string;
  conversationId?: string;
  runId?: string;
  agentId?: string;
}

/** What the message callbacks receive: the pushed message, with what a persister needs. */
export interface LoopMessageFields {
  /** Stable for this message: a persister can store it idempotently under this id. */
  id: string;
  createdAt: string;
  /** The turn (1-based) the message belongs to. */
  turn: number;
}

/** An assistant message the loop pushed, as `onAssistantMessage` receives it. */
export type LoopAssistantMessage = ModelAssistantMessage &
  LoopMessageFields & {
    usage: TokenUsage;
    finishReason: FinishReason;
    /** The model id the provider reported for this answer (`ModelResult.modelId`). */
    modelId?: string;
    /**
     * The message's own replay data, plus `cairn: { provider, model }`: the model that answered
     * (with `createFallbackModel`, the one of the chain that did), for the log. The `messages` the
     * loop sends keep only the model's own data.
     */
    providerMetadata?: ProviderMetadata;
    /**
     * The answer was cut off while it streamed, by an abort (`finishReason` `aborted`) or a failed
     * stream (`error`): `content` is the text shown until then (no usage, no tool calls). Kept so
     * the log holds what the user saw. A fallback model switching after a cut-off stream gives one
     * too, before the next model's answer in the same turn.
     */
    interrupted?: true;
  };

/** A tool result the loop pushed, as `onToolMessage` receives it: a stored `tool` message and more. */
export interface LoopToolMessage extends LoopMessageFields {
  role: 'tool';
  tool_call_id: string;
  /** The whole output: text, or parts when the tool returned them (`toModelOutput`). */
  content: MessageContent;
  toolName: string;
  /** Milliseconds the call took. */
  duration: number;
  isError: boolean;
  errorCode?: CairnErrorCode;
  /** The tool's non-string output, for UIs and the display view. */
  structured?: unknown;
  /** No real result: the turn was cancelled or ended before the call returned. */
  interrupted?: boolean;
}

/** A user message the loop itself pushed: why the last answer was refused (`output`). */
export interface LoopUserMessage extends LoopMessageFields {
  role: 'user';
  content: string;
}

export interface TurnInfo {
  turn: number;
}

export interface TurnEndInfo extends TurnInfo {
  usage: TokenUsage;
  finishReason: FinishReason;
  toolCalls: number;
}

export type MaybePromise<T> = T | Promise<T>;

/** `OUTPUT`: the type `output` validates to (`never` without `output`). */
export interface ChatToolLoopParams<OUTPUT = never> extends Partial<FailState> {
  model: ModelAdapter;
  /** The tools the model may call; none when absent. */
  tools?: ToolHost;
  /** The conversation so far (OpenAI-shaped); the loop appends its messages to this array. */
  messages: ModelMessage[];
  /** Model calls at most; reaching it with calls still coming ends the loop with `LOOP_MAX_TURNS`. Default 20. */
  maxTurns?: number;
  /** Cancels the turn: the model call and the running tools (`LLM_ABORTED`). */
  signal?: AbortSignal;
  context?: LoopContext;
  /** Which tools the model sees and may run; layers are merged with `mergeToolPolicies` (they only narrow). */
  policy?: ToolPolicy | LayeredToolPolicy;
  /** Asked before a tool that needs approval runs; without it such tools are refused. */
  approve?: ToolExecutionOptions['approve'];
  /** Asked last, just before each tool runs (where a ledger stores its intent); see `ToolExecutionOptions`. */
  beforeRun?: ToolExecutionOptions['beforeRun'];
  /** Calls of one assistant message run in parallel, this many at a time. Default 8. */
  toolConcurrency?: number;
  /** Identical failing calls in a row that end the loop with `LOOP_STUCK`. Default 3. */
  stuckThreshold?: number;
  /**
   * The most characters of one tool result sent to the model (`toolOutputForModel` from
   * `@cairn/core`): a longer output is sent as its start and a note of what is missing.
   * Default `DEFAULT_MAX_TOOL_RESULT_CHARS` (51,200, the most a Cairn store keeps inline);
   * `Infinity` sends every output whole. `onToolMessage` still gets the whole output.
   */
  maxToolResultChars?: number;
  /** Compresses the history before this loop's messages when a request gets too big. */
  compressionPipeline?: LoopCompressionPipeline;
  /**
   * Turns the messages of each model call's request into what the adapter is sent, after the
   * history is compressed; `messages` itself is left as it is. The runtime reads stored parts'
   * bytes back here (`resolveContentParts` of `@cairn/storage`), so only the parts still in the
   * request are read and the bytes never stay in the history. A `CairnError` it throws ends the
   * loop with that error.
   */
  prepareMessages?(messages: ModelMessage[]): MaybePromise<ModelMessage[]>;
  /**
   * Structured output: the answer (the model's message without calls) must be one JSON value that
   * `output` validates (any Standard Schema); the result's `object` is the validated value. Every
   * model call asks for it — natively (`ModelRequest.output`) when the adapter's
   * `capabilities.structuredOutput` is true, otherwise by the schema at the end of the system
   * prompt — and tools may still be called first. While it streams, `partial_object` events
   * carry the JSON parsed so far.
   */
  output?: StructuredOutput<OUTPUT>;
  /**
   * Answers that do not validate after which the model is told why (a user message, handed to
   * `onUserMessage`) and asked again; then the loop ends with `OUTPUT_INVALID`. Default 1
   * (`DEFAULT_OUTPUT_RETRIES`); 0 for none.
   */
  outputRetries?: number;
  /** Stream the model's answers (default: when the adapter can). */
  stream?: boolean;
  toolChoice?: ModelToolChoice;
  settings?: ModelSettings;
  providerOptions?: ProviderMetadata;
  headers?: Record<string, string>;
  /** After each assistant message is pushed; awaited, so it can persist before tools run. */
  onAssistantMessage?(message: LoopAssistantMessage): MaybePromise<void>;
  /**
   * After each tool result is pushed, in call order; awaited. It gets the whole output. A persister
   * returns the message as stored (a big output offloaded: a preview and `fullOutputPath`): the
   * model then reads it in this turn exactly as later turns built from the store will.
   */
  onToolMessage?(message: LoopToolMessage): MaybePromise<void> | MaybePromise<ToolOutputSource | undefined>;
  /** After the loop pushes a user message of its own (an invalid answer's feedback); awaited. */
  onUserMessage?(message: LoopUserMessage): MaybePromise<void>;
  /** Every `AgentOutput` event: the model's stream, each tool result, and the loop's own errors. */
  onEvent?(event: AgentOutput): void;
  onTurnStart?(info: TurnInfo): MaybePromise<void>;
  onTurnEnd?(info: TurnEndInfo): MaybePromise<void>;
  /**
   * Traces the loop: each model call (`modelCall`) and tool call (`toolExecution`) runs inside its
   * span, under whatever span is active when the loop starts (`createOtelTelemetry` of
   * `@cairn/otel`). Default: nothing is recorded.
   */
  telemetry?: Telemetry;
  /** Ids of the messages handed to the callbacks. */
  generateId?: () => string;
  now?: () => Date;
}

/** What every loop returns, however it ended. */
export interface ChatToolLoopOutcome extends FailState {
  /**
   * The last assistant message pushed: undefined when no model call succeeded and none was cut off
   * mid-stream (a cut-off answer is `interrupted`, with the text streamed until then).
   */
  message?: LoopAssistantMessage;
  /**
   * The final assistant text: `message`'s content, or `''` when there is none or it only called
   * tools (the AI SDK's `result.text`, the OpenAI Agents SDK's `finalOutput`).
   */
  text: string;
  /**
   * The `messages` array given, with this loop's messages appended (and the history compressed):
   * tool results as the model read them (`maxToolResultChars`, or as stored).
   */
  messages: ModelMessage[];
  usage: { turns: TokenUsage[]; total: TokenUsage };
  /** Model calls made (including one that failed). */
  turns: number;
  /** The last model call's reason; `aborted` or `error` when the loop ended that way. */
  finishReason: FinishReason;
}

/** `object`: the validated answer when `output` was given; nothing otherwise. */
export type OutputObject<OUTPUT> = [OUTPUT] extends [never] ? { object?: undefined } : { object: OUTPUT };

/** The model answered without calls (and the answer validated, with `output`). */
export type ChatToolLoopSuccess<OUTPUT = never> = ChatToolLoopOutcome & {
  success: true;
  error?: undefined;
  /**
   * The calls of the last answer whose approver answered `pending`: the loop ended waiting for their
   * decisions (they have no result in `messages`; the others of that answer do). Absent otherwise.
   */
  waiting?: OpenAIToolCall[];
} & OutputObject<OUTPUT>;

/**
 * The loop stopped: `maxTurns`, a stuck call, an abort, a model failure, a callback's `CairnError`,
 * or (with `output`) an answer that still did not validate (`OUTPUT_INVALID`).
 */
export interface ChatToolLoopFailure extends ChatToolLoopOutcome {
  success: false;
  error: CairnError;
  object?: undefined;
}

/** Narrow on `success`: a failure always carries its `error`, a success with `output` its `object`. */
export type ChatToolLoopResult<OUTPUT = never> = ChatToolLoopSuccess<OUTPUT> | ChatToolLoopFailure;
