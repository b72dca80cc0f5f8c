import type { MessageContent } from '../content/content-part.js';
import type { CairnErrorCode } from '../errors/cairn-error-code.js';
import type { OpenAIToolCall } from '../messages/openai-chat-message.js';
import type { JsonSchema, ModelToolDefinition } from '../model/model-adapter.js';
import type { StandardSchemaV1 } from '../standard-schema.js';
import type { ToolPolicy } from './tool-policy.js';

/** Where a tool runs: which call, which conversation, and the signal that cancels it. */
export interface ToolContext {
  /** The id of the tool call being executed. */
  toolCallId: string;
  /** Aborted when the turn is cancelled or the tool times out; long-running tools must honour it. */
  signal: AbortSignal;
  /** The workspace the tool may touch; file tools refuse paths outside it. */
  projectRoot?: string;
  conversationId?: string;
  runId?: string;
  agentId?: string;
}

// Method syntax makes a callback's parameter bivariant, so a `Tool<{ path: string }>` still fits
// in a `Tool[]` registry (a plain function type would make `Tool<X>` incompatible with `Tool`).
type ApprovalCheck<Input> = {
  check(input: Input, context: ToolContext): boolean | Promise<boolean>;
}['check'];

type ModelOutputOf<Output> = {
  render(output: Output): MessageContent;
}['render'];

/** A tool the model can call. Build one with `defineTool` from `@cairn/loop`. */
export interface Tool<Input = unknown, Output = unknown> {
  /** Unique name the model calls it by (`read_file`). */
  name: string;
  /** What it does and when to use it, for the model. */
  description: string;
  /** Group used by tool policies (`fs`, `shell`, `web`, …). */
  category: string;
  /**
   * Validates the model's arguments before `execute` (any Standard Schema: zod, valibot, arktype);
   * also the source of the JSON Schema the model sees, unless `inputJsonSchema` is given.
   */
  input: StandardSchemaV1<unknown, Input>;
  /** The JSON Schema the model sees, for a validator whose library cannot make one (zod 3). */
  inputJsonSchema?: JsonSchema;
  /**
   * Runs the tool. A string result is what the model reads; any other result is kept as the call's
   * `structured` result and the model reads `toModelOutput(result)`, or its JSON text.
   */
  execute(input: Input, context: ToolContext): Promise<Output> | Output;
  /**
   * What the model reads of a non-string result: text (a summary instead of, say, a whole file) or
   * content parts (`createImagePart`, `createFilePart`, text parts) for a screenshot or a chart the
   * model should see. Parts are stored with the result (their bytes as blobs) and sent again on
   * later turns, so the model reads the same thing then.
   */
  toModelOutput?: ModelOutputOf<Output>;
  /** Ask the user before running (always, or when this returns true). */
  needsApproval?: boolean | ApprovalCheck<Input>;
  /**
   * Running it twice with the same input does no harm (a read, a write of the same content). A call
   * interrupted while it ran (the process died) is run again only when this is true; otherwise it gets
   * an "interrupted, not retried" result. Default false.
   */
  idempotent?: boolean;
  /** Abort `execute` after this many milliseconds (`TOOL_TIMEOUT`). */
  timeoutMs?: number;
}

/** The result of one tool call, ready to become a `tool` message. Failures are results, not throws. */
export interface ToolCallResult {
  toolCallId: string;
  toolName: string;
  /**
   * What the model reads: the output, or for a failure what went wrong and how to fix it. Parts
   * when the tool's `toModelOutput` returned them (an image the model sees); otherwise text.
   */
  content: MessageContent;
  isError: boolean;
  /** Why it failed (`TOOL_NOT_FOUND`, `TOOL_INVALID_INPUT`, `TOOL_DENIED`, `TOOL_FAILED`, `TOOL_TIMEOUT`). */
  errorCode?: CairnErrorCode;
  /** How long the call took, without the wait for its approval (the person's time, not the tool's). */
  durationMs: number;
  /** The tool's non-string output before stringifying, for UIs and the display view. */
  structured?: unknown;
  /** The call was cancelled (the turn was aborted) before the tool returned: there is no real result. */
  interrupted?: boolean;
  /**
   * The approver answered `pending`: the call waits for a decision stored elsewhere, it did not run and
   * has no result yet (`content` is empty). The loop ends its turn waiting instead of calling the model.
   */
  pending?: true;
}

/** What the user is asked to approve. */
export interface ToolApprovalRequest {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Aborted when the turn is cancelled while the question is open: the answer no longer counts. */
  signal?: AbortSignal;
}

/**
 * An approver's answer: `true`/`false`, the same with an edited input or a reason, or `pending` when
 * the decision is to be made later, elsewhere (a durable approval: the turn ends waiting for it).
 */
export type ToolApprovalAnswer =
  | boolean
  | 'pending'
  | { approved: true; input?: unknown }
  | { approved: false; reason?: string };

/** A call that passed the policy, its validation and its approval, about to run. */
export interface ToolRunRequest {
  toolCallId: string;
  toolName: string;
  /** The validated input it will run with. */
  input: unknown;
  /** The tool's `idempotent` flag. */
  idempotent: boolean;
}

/** What stops a call from running after all: its result instead (`beforeRun`). */
export interface ToolRunRefusal {
  content: string;
  isError: true;
  errorCode?: CairnErrorCode;
  interrupted?: boolean;
}

/** Options of one `ToolHost.execute` call. */
export interface ToolExecutionOptions extends Omit<ToolContext, 'toolCallId'> {
  /** Calls the policy refuses end with `TOOL_DENIED`. */
  policy?: ToolPolicy;
  /**
   * Asked before a tool that needs approval runs; `false` ends the call with `TOOL_DENIED`, an edited
   * input is validated again, `pending` leaves the call waiting (`ToolCallResult.pending`).
   * Without it, such tools are denied.
   */
  approve?(request: ToolApprovalRequest): ToolApprovalAnswer | Promise<ToolApprovalAnswer>;
  /**
   * Called last, just before the tool runs, and awaited: where a ledger stores its intent. A refusal
   * returned is the call's result and the tool does not run (another process runs it already).
   */
  beforeRun?(request: ToolRunRequest): Promise<ToolRunRefusal | undefined> | ToolRunRefusal | undefined;
}

/** A registry of tools: what the model may see, and running the calls it makes. */
export interface ToolHost {
  /** The tools the policy allows, as the model should see them. */
  getVisibleTools(options?: { policy?: ToolPolicy }): ModelToolDefinition[];
  /** Validates and runs one call. Never throws for a tool's own failure: see `ToolCallResult`. */
  execute(call: OpenAIToolCall, options: ToolExecutionOptions): Promise<ToolCallResult>;
}
