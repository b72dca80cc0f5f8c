import { z } from 'zod';
import { ContentPartSchema } from '../content/content-part.js';
import { CairnErrorCodeSchema } from '../errors/cairn-error-code.js';
import { JsonValueSchema } from '../messages/json-value.js';
import { ProviderMetadataSchema } from '../messages/provider-metadata.js';
import { assertValid, validationIssues } from '../validation/validate.js';
import { FinishReasonSchema } from './finish-reason.js';
import { TokenUsageSchema } from './token-usage.js';

// Fields every event has: when it happened, which message it belongs to, provider data to keep.
const base = {
  /** ISO 8601 time the event was produced (or the time an agent CLI reported). Producers take a clock. */
  timestamp: z.iso.datetime({ offset: true }),
  /**
   * The model message this event is part of. Claude Code, for one, sends a reply's text and tool
   * calls as separate lines sharing one message id; consumers group by it.
   */
  messageId: z.string().optional(),
  /** Set on events of a sub-agent: the id of the tool call (Claude's `Task`) that started it. */
  parentToolUseId: z.string().optional(),
  providerMetadata: ProviderMetadataSchema.optional(),
};

/** An agent or model session began. */
export const SessionStartEventSchema = z.object({
  type: z.literal('session_start'),
  ...base,
  sessionId: z.string().optional(),
  model: z.string().optional(),
  /** Names of the tools the agent may call. */
  tools: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  provider: z.string().optional(),
});

/** The user's input as the agent received it (Gemini CLI echoes the prompt, for one). */
export const UserMessageEventSchema = z.object({
  type: z.literal('user_message'),
  ...base,
  /** The input's text (with a placeholder such as `[image]` for each part that is not text). */
  text: z.string(),
  /**
   * The input as parts when it holds more than text (a user message with an image, given to Claude
   * Code as stream-json input), in order, text parts included. Bytes are inline; the store moves them.
   */
  content: z.array(ContentPartSchema).optional(),
});

/** A piece of text block `id`. Deltas of one block arrive in order; the block ends with a `text` event. */
export const TextDeltaEventSchema = z.object({
  type: z.literal('text_delta'),
  ...base,
  id: z.string(),
  delta: z.string(),
});

/** A whole text block. After deltas with the same `id`, it closes that block and repeats its full text. */
export const TextEventSchema = z.object({
  type: z.literal('text'),
  ...base,
  id: z.string(),
  text: z.string(),
});

/** A piece of reasoning ("thinking") block `id`; the block ends with a `reasoning` event. */
export const ReasoningDeltaEventSchema = z.object({
  type: z.literal('reasoning_delta'),
  ...base,
  id: z.string(),
  delta: z.string(),
});

/**
 * A whole reasoning block (closes block `id` after deltas). Signatures needed to replay it
 * (Anthropic `signature`, Gemini `thoughtSignature`) are in `providerMetadata`. `redacted` blocks
 * carry no readable text.
 */
export const ReasoningEventSchema = z.object({
  type: z.literal('reasoning'),
  ...base,
  id: z.string(),
  text: z.string(),
  redacted: z.boolean().optional(),
});

/** A piece of the JSON arguments of tool call `id`, streamed before the matching `tool_use`. */
export const ToolInputDeltaEventSchema = z.object({
  type: z.literal('tool_input_delta'),
  ...base,
  id: z.string(),
  toolName: z.string().optional(),
  delta: z.string(),
});

/** The model (or agent) calls a tool. Closes any `tool_input_delta`s with the same `id`. */
export const ToolUseEventSchema = z.object({
  type: z.literal('tool_use'),
  ...base,
  id: z.string(),
  toolName: z.string(),
  /** The parsed arguments; the raw string when they are not valid JSON. */
  input: JsonValueSchema,
  /**
   * The arguments exactly as the model wrote them (JSON text of `input`), when the producer has
   * them. A log keeps this text rather than re-serialising `input`: no second serialisation, and a
   * replay sends the model its own bytes (provider prompt caches match on them).
   */
  inputText: z.string().optional(),
});

/** A tool's result for call `toolUseId`. */
export const ToolResultEventSchema = z.object({
  type: z.literal('tool_result'),
  ...base,
  toolUseId: z.string(),
  toolName: z.string().optional(),
  /** The result's text (with a placeholder such as `[image: a.png]` for each part that is not text). */
  output: z.string(),
  /**
   * The result as parts when it holds more than text (Claude Code's Read of a PNG returns an image),
   * in order, text parts included. Bytes are inline (`base64`) here; the store moves them to blobs.
   */
  content: z.array(ContentPartSchema).optional(),
  isError: z.boolean(),
  /** Tool-specific structured result (a patch, stdout/stderr, …) when the producer has one. */
  structured: JsonValueSchema.optional(),
  durationMs: z.number().nonnegative().optional(),
});

/**
 * Token usage of the current model call, cumulative: a later `usage` event of the same call
 * replaces an earlier one (providers repeat or grow the totals while streaming); never add them.
 */
export const UsageEventSchema = z.object({
  type: z.literal('usage'),
  ...base,
  usage: TokenUsageSchema,
});

/**
 * Structured output (`ModelRequest.output`) while it streams: the JSON object parsed so far from the
 * text (an incomplete object, its unfinished strings cut). Each replaces the one before; the text
 * events carry the exact JSON. Not stored.
 */
export const PartialObjectEventSchema = z.object({
  type: z.literal('partial_object'),
  ...base,
  object: JsonValueSchema,
});

/** The model call ended; exactly once per call, as its last event. */
export const FinishEventSchema = z.object({
  type: z.literal('finish'),
  ...base,
  reason: FinishReasonSchema,
  rawReason: z.string().optional(),
});

/** Something failed. The stream may go on (a bad line) or end (a failed call): see `fatal`. */
export const ErrorEventSchema = z.object({
  type: z.literal('error'),
  ...base,
  code: CairnErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  retryAfterMs: z.number().nonnegative().optional(),
  /** True when the producer stops after this error. */
  fatal: z.boolean().optional(),
  /** The offending input (a malformed line or chunk), kept for diagnosis. */
  raw: z.string().optional(),
});

/** An agent session ended (agent CLIs report turns, duration, cost, final text). */
export const SessionResultEventSchema = z.object({
  type: z.literal('session_result'),
  ...base,
  sessionId: z.string().optional(),
  isError: z.boolean(),
  /** The producer's own outcome label (`success`, `error_max_turns`, …). */
  subtype: z.string().optional(),
  result: z.string().optional(),
  turns: z.number().int().nonnegative().optional(),
  durationMs: z.number().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
  usage: TokenUsageSchema.optional(),
});

/**
 * The producer is retrying a failed model request (Claude Code's `system/api_retry` line, Gemini
 * CLI's `Attempt N failed … Retrying` on stderr). Not a failure: the run goes on; an `error` event
 * follows only if the retries run out. Shown live, not stored as a conversation message.
 */
export const RetryEventSchema = z.object({
  type: z.literal('retry'),
  ...base,
  /** Which retry this is, from 1. */
  attempt: z.number().int().positive(),
  /** How many retries the producer allows, when it says. */
  maxAttempts: z.number().int().positive().optional(),
  /** The wait before the retried request. */
  delayMs: z.number().nonnegative().optional(),
  /** The HTTP status of the failed attempt. */
  status: z.number().int().optional(),
  /** The failure as the producer named it (`overloaded`, `server_error`, …). */
  error: z.string().optional(),
});

/**
 * Progress of a background task of the agent: a sub-agent (Claude's `Agent` call) or a long tool
 * run. `status` is `started`, `running`, `completed`, `failed`, `stopped` or a newer producer's
 * own word. Shown live, not stored as a conversation message.
 */
export const TaskProgressEventSchema = z.object({
  type: z.literal('task_progress'),
  ...base,
  /** The producer's id of the task, when it gives one. */
  taskId: z.string().optional(),
  /** The tool call that runs the task. */
  toolUseId: z.string().optional(),
  status: z.string(),
  /** What the task does, in a few words. */
  description: z.string().optional(),
  /** The instructions a sub-agent was given. */
  prompt: z.string().optional(),
  /** The producer's summary of the finished task. */
  summary: z.string().optional(),
  /** The tool the task used last. */
  lastToolName: z.string().optional(),
  /** Where the producer wrote the task's output. */
  outputFile: z.string().optional(),
  totalTokens: z.number().int().nonnegative().optional(),
  toolUses: z.number().int().nonnegative().optional(),
  durationMs: z.number().nonnegative().optional(),
});

/**
 * A status line of the producer that is neither model output nor user input (Claude Code's
 * `[Request interrupted by user for tool use]`): `status` is a stable word (`interrupted`),
 * `message` the producer's own text.
 */
export const StatusEventSchema = z.object({
  type: z.literal('status'),
  ...base,
  status: z.string(),
  message: z.string(),
});

/** Input a converter did not recognise, kept whole so nothing is lost. Never fatal. */
export const UnknownEventSchema = z.object({
  type: z.literal('unknown'),
  ...base,
  /** Where it came from: `claude-code`, `gemini-cli`, `anthropic`, … */
  source: z.string().optional(),
  raw: JsonValueSchema,
});

/** The one event stream for everything that produces agent output (see docs/architecture.md). */
export const AgentOutputSchema = z.discriminatedUnion('type', [
  SessionStartEventSchema,
  UserMessageEventSchema,
  TextDeltaEventSchema,
  TextEventSchema,
  ReasoningDeltaEventSchema,
  ReasoningEventSchema,
  ToolInputDeltaEventSchema,
  ToolUseEventSchema,
  ToolResultEventSchema,
  UsageEventSchema,
  PartialObjectEventSchema,
  FinishEventSchema,
  ErrorEventSchema,
  SessionResultEventSchema,
  RetryEventSchema,
  TaskProgressEventSchema,
  StatusEventSchema,
  UnknownEventSchema,
]);

export type AgentOutput = z.infer<typeof AgentOutputSchema>;
export type AgentOutputType = AgentOutput['type'];
/** The event of one type: `AgentOutputOf<'tool_use'>`. */
export type AgentOutputOf<T extends AgentOutputType> = Extract<AgentOutput, { type: T }>;

/** True when `value` is a valid `AgentOutput` event. */
export function isAgentOutput(value: unknown): value is AgentOutput {
  return validationIssues(AgentOutputSchema, value).length === 0;
}

/** Returns `value` typed as an event, or throws `INVALID_MESSAGE` naming the first bad field. */
export function parseAgentOutput(value: unknown): AgentOutput {
  return assertValid(AgentOutputSchema, value, 'AgentOutput event');
}
