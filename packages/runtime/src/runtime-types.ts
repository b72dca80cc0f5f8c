import type { CompressionPipelineOptions, CompressionResult, CompressionStepName } from '@cairn/compression';
import type { AgentPersona, ModeProfiles } from '@cairn/context-builder';
import type {
  AgentOutput,
  ApprovalEntry,
  CairnError,
  ConversationMessage,
  ConversationStore,
  FinishReason,
  MessageContent,
  ModelAdapter,
  Telemetry,
  TokenUsage,
  Tool,
  ToolExecutionOptions,
  ToolHost,
  ToolPolicy,
} from '@cairn/core';
import type { StructuredOutput, ToolRegistry } from '@cairn/loop';
import type { WorkflowPackage } from './runs/workflow-definition.js';

/** A pino-compatible logger (only these methods are used); never given secrets or message text. */
export interface RuntimeLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/**
 * Why the runtime compressed although the estimate was under the trigger: `context_overflow`, the
 * model refused the request as too long, so it was compressed and the call tried once more.
 */
export type CompressionTrigger = 'context_overflow';

/** What the runtime adds to the `AgentOutput` stream. */
export type RuntimeEvent =
  | { type: 'runtime'; event: 'message_persisted'; conversationId: string; message: ConversationMessage }
  | {
      type: 'runtime';
      event: 'compression_applied';
      conversationId: string;
      compressed: true | 'partial';
      tokensBefore: number;
      tokensAfter: number;
      steps: string[];
      /** Set when something other than the estimate made it compress (see `CompressionTrigger`). */
      trigger?: CompressionTrigger;
    };

export type RuntimeEventListener = (event: AgentOutput | RuntimeEvent) => void;

export interface RuntimeSettings {
  /** Model calls per turn at most (the loop's `maxTurns`). Default 20. */
  maxTurns?: number;
  toolConcurrency?: number;
  /**
   * The most characters of one tool result the model is sent, in the turn that produced it and in
   * later turns alike (`toolOutputForModel` from `@cairn/core`; an output the store offloaded is
   * sent as its preview and reference). Default `DEFAULT_MAX_TOOL_RESULT_CHARS` (51,200);
   * `Infinity` for none. The store always keeps the whole output.
   */
  maxToolResultChars?: number;
  /**
   * Give every turn `read_tool_output`, with which the model reads on in an output the store
   * offloaded (it was sent a preview and `[Full output: <ref>]`). Default true.
   */
  readToolOutput?: boolean;
  /** The system's tool policy; an agent's own can only narrow it. */
  toolPolicy?: ToolPolicy;
  /** The workspace tools work in. */
  projectRoot?: string;
  /**
   * Asked at once, in this process, before a tool that needs approval runs (a terminal prompt). Every
   * request is stored first and every answer stored as its decision; without an approver, or when it
   * answers `pending`, the turn ends waiting (`ChatResult.waiting`) and the call runs once someone
   * decides it (`runtime.approvals.decide`) and the conversation is resumed (`runtime.resume`).
   */
  approve?: ToolExecutionOptions['approve'];
  /** Durable approvals: who may decide, for how long a request waits, who `approve` decides as. */
  approvals?: ApprovalSettings;
  /** Workflow runs. */
  runs?: {
    /**
     * How long a run's lease lasts unrenewed (renewed every third of it while a turn runs): how soon
     * `runs.recover` in another process takes over a run whose process died. Default 30 s.
     */
    leaseTtlMs?: number;
  };
  /**
   * Compression of the context (`false` for none). Default: the model's context window (or 128k)
   * as the budget, a tokenizer for the model, and the model itself summarising old turns.
   */
  compression?: false | (CompressionPipelineOptions & { summarize?: boolean });
  /** Prompt texts per mode (see `@cairn/context-builder`); an empty text leaves that mode's out. */
  modeProfiles?: Partial<ModeProfiles>;
  /**
   * `false`: the system prompt gets no mode text at all ("Mode: chat. …", see the README), only the
   * agent's persona and instructions, the tool list and (in a run) the run context. Default true.
   */
  modePrompt?: boolean;
  /** Ids of new conversations and of the messages the runtime writes. */
  generateId?: () => string;
  now?: () => Date;
}

/** See `RuntimeSettings.approvals`. */
export interface ApprovalSettings {
  /** Stored in each request: `local`, `caller:<hash>`, `any`. Default `local` with `approve`, else `any`. */
  askedOf?: string;
  /** A request left undecided this long is decided `expired` (the call denied). Default: no expiry. */
  ttlMs?: number;
  /** The `decidedBy` of the decisions `approve` makes. Default `local`. */
  decidedBy?: string;
}

export interface AgentRuntimeOptions {
  store: ConversationStore;
  model: ModelAdapter;
  /** The tools the model may call: a host, or the tools for one. */
  tools?: ToolRegistry | ToolHost | readonly Tool[];
  settings?: RuntimeSettings;
  logger?: RuntimeLogger;
  /**
   * Traces each turn as an agent invocation, with its model and tool calls inside
   * (`createOtelTelemetry` of `@cairn/otel`). Default: nothing is recorded.
   */
  telemetry?: Telemetry;
  /** Workflow packages `runs.start` can name; checked when the runtime is created (`INVALID_ARGUMENT`). */
  workflows?: readonly WorkflowPackage[];
}

/** An agent: its persona for the system prompt, and what it may use. */
export interface RuntimeAgent extends AgentPersona {
  /** Written as `agentId` on its messages. */
  id?: string;
  /** Narrows the system policy for this agent. */
  toolPolicy?: ToolPolicy;
}

/** `OUTPUT`: what `output` validates the answer to (`never` without `output`). */
export interface ChatParams<OUTPUT = never> {
  /** The conversation to continue; a new one is created (and returned) when absent. */
  conversationId?: string;
  /** What the user sends: text, or parts (text, images, files; see `createImagePart`). */
  userInput: MessageContent;
  /** Default `chat`. */
  mode?: 'chat' | 'agent';
  agent?: RuntimeAgent;
  /** Facts for this turn (a selection, the open file): shown to the model, not stored. */
  dataContext?: string | Record<string, unknown>;
  /** More user messages stored before `userInput` (attachments as text, quoted messages). */
  extraUserMessages?: string[];
  /**
   * This turn starts a branch (see `activeBranch` in `@cairn/core`): its user input takes the place of
   * the user message at this seq, on the conversation as it stands. Edit-and-resend: the edited text;
   * regenerate: the same input again. What it replaces stays in the log, out of the context. Not a user
   * message of the active branch: `INVALID_ARGUMENT`, before anything is stored.
   */
  branchFrom?: number;
  /**
   * Who may decide the approvals this turn asks for (`local`, `caller:<id>`, `any`): a server passes
   * the caller it authenticated. Default `settings.approvals.askedOf`.
   */
  askedOf?: string;
  signal?: AbortSignal;
  onEvent?: RuntimeEventListener;
  /**
   * This turn's telemetry, when the caller traces the work around it (a server request's scope,
   * `TelemetryScope.telemetry`): the turn's `invoke_agent` is its child. The runtime's own otherwise.
   */
  telemetry?: Telemetry;
  /** Another model for this turn (the conversation moves to it; see provider portability). */
  model?: ModelAdapter;
  /**
   * Structured output: the answer must be one JSON value this schema (any Standard Schema: zod 4,
   * valibot, arktype; or `{ schema, jsonSchema?, name?, description? }`) validates; `object` is the
   * validated value. Tools may still be called first. See the README's "Structured output".
   */
  output?: StructuredOutput<OUTPUT>;
  /**
   * Answers that do not validate after which the model is told why (a user message, stored) and
   * asked again; then the turn fails with `OUTPUT_INVALID`. Default 1; 0 for none.
   */
  outputRetries?: number;
}

export interface ChatResult<OUTPUT = never> {
  conversationId: string;
  success: boolean;
  /** With `output`, on success: the answer, parsed and validated (the stored answer's text is its JSON). */
  object?: OUTPUT;
  /** The last assistant message stored (the answer, or the error message on failure). */
  message?: ConversationMessage;
  /**
   * The model's final text this turn: its last answer's content (on a failure, what it said before
   * it; text cut off mid-stream included), `''` when it said nothing or only called tools. Never
   * the stored error message: that is `message` and `error`.
   */
  text: string;
  error?: CairnError;
  usage: { turns: TokenUsage[]; total: TokenUsage };
  /** Model calls made. */
  turns: number;
  finishReason: FinishReason;
  /**
   * The approval requests this turn stopped for, stored in the log: it ended without calling the
   * model again (`finishReason: 'tool_calls'`). Decide them (`runtime.approvals.decide`) and
   * `runtime.resume` runs the calls and goes on. Absent when nothing waits.
   */
  waiting?: ApprovalEntry[];
}

/** `resume`: the conversation to continue, for the session that continues it. */
export interface ResumeParams
  extends Pick<
    ChatParams,
    'mode' | 'agent' | 'model' | 'dataContext' | 'askedOf' | 'signal' | 'onEvent' | 'telemetry'
  > {
  conversationId: string;
}

/** `compress`: the conversation to compress, for the turn that would come next (its mode, agent, model). */
export interface CompressParams extends Pick<ChatParams, 'mode' | 'agent' | 'model' | 'signal' | 'onEvent'> {
  conversationId: string;
}

/** What `compress` did to the request the next turn sends. */
export interface CompressResult extends Pick<CompressionResult, 'compressed' | 'reason'> {
  conversationId: string;
  tokensBefore: number;
  tokensAfter: number;
  steps: CompressionStepName[];
  /** Summaries stored as compaction records: the next turns send them in place of what they cover. */
  summaries: number;
}
