import { z } from 'zod';
import { TokenUsageSchema } from '../agent-output/token-usage.js';
import { MessageContentSchema } from '../content/content-part.js';
import { ToolExecutionMetadataSchema } from '../tools/tool-execution-metadata.js';
import { assertValid, validationIssues } from '../validation/validate.js';
import { CompactionSchema } from './compaction.js';
import { conversationMessageFastCheck } from './conversation-message-fast-check.js';
import { ConversationMessageRoleSchema } from './conversation-message-role.js';
import { JsonValueSchema } from './json-value.js';
import { ApprovalRecordSchema, ToolIntentSchema } from './ledger-schemas.js';
import { DISPLAY_ONLY_PART_TYPES, MessagePartTypeSchema } from './message-part-type.js';
import { type OpenAIToolCall, OpenAIToolCallSchema } from './openai-chat-message.js';
import { ProviderMetadataSchema } from './provider-metadata.js';
import { ReasoningPartSchema } from './reasoning-part.js';
import { checkRoleRules } from './role-rules.js';
import { WidgetPayloadSchema } from './widget.js';

/** Which kind of session produced a message; the context builder picks its prompt profile by it. */
export const ConversationModeSchema = z.enum(['chat', 'agent', 'run']);
export type ConversationMode = z.infer<typeof ConversationModeSchema>;

/**
 * A message of a conversation log: OpenAI tool-call protocol fields, UI extras, context
 * metadata, storage fields. Every field but `id`, `role` and `createdAt` is optional, so
 * messages written before a field existed stay valid. Role rules (a `tool` message needs
 * `tool_call_id`, only assistants carry `tool_calls`, …) are checked too.
 */
export const ConversationMessageSchema = z
  .object({
    // Identity and protocol fields (OpenAI tool-call protocol).
    id: z.string().min(1),
    role: ConversationMessageRoleSchema,
    /** ISO 8601 with a zone (`Z` or an offset). Informational: order is `seq`, never time. */
    createdAt: z.iso.datetime({ offset: true }),
    /**
     * Text, or an ordered list of parts (text, image, file, …; see `ContentPart`): user and tool
     * messages may carry any part, system and assistant messages text parts only. `null` (or absent)
     * only on assistant messages that carry tool calls or nothing.
     */
    content: MessageContentSchema.nullable().optional(),
    /** Assistant only: the calls it requested, each answered by one `tool` message. */
    tool_calls: z.array(OpenAIToolCallSchema).optional(),
    /** Assistant only: the model's reasoning blocks, in order, with replay signatures. */
    reasoning: z.array(ReasoningPartSchema).optional(),
    /** Tool only: the `id` of the call this message answers. */
    tool_call_id: z.string().min(1).optional(),
    /** Tool only: the tool failed and `content` says why. */
    isError: z.boolean().optional(),
    /** Tool only: the tool's structured result (a patch, stdout/stderr, …) beside its text. */
    structuredResult: JsonValueSchema.optional(),
    /**
     * Tool and assistant only. A tool message: the call's real result never came (the agent stopped,
     * the process died, the wait timed out); `content` says so, written so the log stays a complete
     * call/result protocol. An assistant message: the answer was cut off while it streamed (the turn
     * was aborted, or the stream failed); `content` is the text streamed until then, kept because
     * the user saw it.
     */
    interrupted: z.boolean().optional(),
    /** Assistant only: the tokens of the model call that wrote it (absent on an answer cut off mid-stream). */
    usage: TokenUsageSchema.optional(),
    /**
     * The message starts a branch (see `activeBranch`): it takes the place of the message at this seq,
     * following what that one followed; the replaced message and those after it stay in the log, off
     * the path. Set on the user message of an edit-and-resend (the seq of the message edited) or of a
     * regeneration (the seq of the message answered again).
     */
    branchFrom: z.number().int().positive().optional(),

    // UI extras: shown by front ends, stripped before a model sees the message.
    partType: MessagePartTypeSchema.optional(),
    toolName: z.string().optional(),
    /** Milliseconds the tool (or turn) took. */
    duration: z.number().nonnegative().optional(),
    isCollapsed: z.boolean().optional(),
    widget: WidgetPayloadSchema.optional(),
    /**
     * Error messages (`partType: 'error'`) only: the `CairnError` code of the failure. A string, not
     * the closed code list, so a code added by a newer version never makes a stored message invalid.
     */
    errorCode: z.string().min(1).optional(),
    /** Display view only (never stored): the merged call + result of a `tool_execution` message. */
    toolExecution: ToolExecutionMetadataSchema.optional(),

    // Context metadata: which session wrote the message and whether models see it.
    mode: ConversationModeSchema.optional(),
    runId: z.string().min(1).optional(),
    agentId: z.string().min(1).optional(),
    /** `false` hides the message from the model; absent means `true` (see `isIncludedInContext`). */
    includeInContext: z.boolean().optional(),

    // Storage.
    /** Set when a large tool output was offloaded: the store-relative blob reference. */
    fullOutputPath: z.string().min(1).optional(),
    /** Namespaced provider data needed to replay the message to the same provider. */
    providerMetadata: ProviderMetadataSchema.optional(),
    /** Position in the conversation (1, 2, …), assigned by the store on append. The only order there is. */
    seq: z.number().int().positive().optional(),

    // Compression.
    /**
     * System only (`partType: 'compaction'`): the log range this message's `content` summarises.
     * Appended after the range; models see the summary in the range's place.
     */
    compaction: CompactionSchema.optional(),

    // The tool ledger (see `readToolLedger`).
    /** System only: an approval request (`partType: 'approval_request'`) or its decision (`'approval_decision'`). */
    approval: ApprovalRecordSchema.optional(),
    /** System only (`partType: 'tool_intent'`): a tool call about to run. */
    toolIntent: ToolIntentSchema.optional(),
  })
  .superRefine(checkRoleRules);

export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;

const passesFastCheck = conversationMessageFastCheck(Object.keys(ConversationMessageSchema.shape));

/** True when `value` is a valid conversation message (legacy messages without new fields included). */
export function isValidConversationMessage(value: unknown): value is ConversationMessage {
  return passesFastCheck(value) || validationIssues(ConversationMessageSchema, value).length === 0;
}

/**
 * Returns `value` typed as a message, or throws `INVALID_MESSAGE` naming the first bad field.
 * The value itself is returned, not a stripped copy: fields written by a newer version survive.
 */
export function parseConversationMessage(value: unknown): ConversationMessage {
  if (passesFastCheck(value)) return value as ConversationMessage;
  return assertValid(ConversationMessageSchema, value, 'conversation message');
}

/** An assistant message that requests at least one tool call. */
export function isToolCallMessage(
  message: ConversationMessage,
): message is ConversationMessage & { role: 'assistant'; tool_calls: [OpenAIToolCall, ...OpenAIToolCall[]] } {
  return message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
}

/** A display-only message (`thinking`, `tool_execution`, a `title` record): never part of a model request. */
export function isDisplayOnlyMessage(message: ConversationMessage): boolean {
  return message.partType !== undefined && DISPLAY_ONLY_PART_TYPES.has(message.partType);
}

/**
 * Whether the model should see this message: `includeInContext` is not `false` (absent means
 * true) and it is not a display-only message.
 */
export function isIncludedInContext(message: ConversationMessage): boolean {
  return message.includeInContext !== false && !isDisplayOnlyMessage(message);
}
