import { z } from 'zod';

/** What a message shows in a UI. Absent means plain `content`. */
export const KNOWN_MESSAGE_PART_TYPES = [
  /** Ordinary text. */
  'content',
  /** Display view only: model reasoning shown on its own (the log keeps it in `reasoning`). */
  'thinking',
  /** An assistant message that requests tool calls. */
  'tool_call',
  /** A tool's result (protocol `tool` message). */
  'tool_result',
  /** Display view only: a tool call merged with its result (see `ToolExecutionMetadata`). */
  'tool_execution',
  /** A failure recorded as an assistant message, so the user can say "continue". */
  'error',
  /** An interactive widget (see `WidgetPayload`). */
  'widget',
  /** A `system` message summarising earlier messages (its `compaction` says which). */
  'compaction',
  /** A `system` record naming the conversation (a rename): `content` is the title. Never sent to a model. */
  'title',
  /** A `system` record asking for a tool call's approval (its `approval` says which). Never sent to a model. */
  'approval_request',
  /** A `system` record deciding an approval request, exactly once. Never sent to a model. */
  'approval_decision',
  /** A `system` record of a tool call about to run (its `toolIntent`), for the ledger. Never sent to a model. */
  'tool_intent',
] as const;

/**
 * Part types that must never be sent to a model: the display view's own (`thinking`,
 * `tool_execution`) and log records kept for people and the runtime (`title`, the ledger's).
 */
export const DISPLAY_ONLY_PART_TYPES: ReadonlySet<string> = new Set([
  'thinking',
  'tool_execution',
  'title',
  'approval_request',
  'approval_decision',
  'tool_intent',
]);

export type KnownMessagePartType = (typeof KNOWN_MESSAGE_PART_TYPES)[number];
/** A known part type, or one added by a newer version (kept, treated as `content`). */
export type MessagePartType = KnownMessagePartType | (string & {});

// Open on purpose: a value written by a newer version must not make an older reader reject the
// whole message. The JSON Schema still lists the known values.
export const MessagePartTypeSchema = z.union([
  z.enum(KNOWN_MESSAGE_PART_TYPES),
  z.string().min(1),
]) as unknown as z.ZodType<MessagePartType>;
