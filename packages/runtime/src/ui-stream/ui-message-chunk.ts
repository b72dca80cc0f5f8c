import { z } from 'zod';

/**
 * The chunks of the AI SDK UI message stream protocol (`x-vercel-ai-ui-message-stream: v1`) that
 * Cairn sends: the shapes `useChat` and `readUIMessageStream` from the `ai` package read. Declared
 * here so the runtime needs no `ai` at run time; the tests feed them to the real reader.
 */
// A union, not a discriminated one: `data-*` types are a pattern, not a literal.
export const UIMessageChunkSchema = z.union([
  z.object({
    type: z.literal('start'),
    messageId: z.string().optional(),
    messageMetadata: z.unknown().optional(),
  }),
  z.object({ type: z.literal('start-step') }),
  z.object({ type: z.literal('finish-step') }),
  z.object({ type: z.literal('text-start'), id: z.string() }),
  z.object({ type: z.literal('text-delta'), id: z.string(), delta: z.string() }),
  z.object({ type: z.literal('text-end'), id: z.string() }),
  z.object({ type: z.literal('reasoning-start'), id: z.string() }),
  z.object({ type: z.literal('reasoning-delta'), id: z.string(), delta: z.string() }),
  z.object({ type: z.literal('reasoning-end'), id: z.string() }),
  z.object({
    type: z.literal('tool-input-start'),
    toolCallId: z.string(),
    toolName: z.string(),
    dynamic: z.boolean().optional(),
  }),
  z.object({ type: z.literal('tool-input-delta'), toolCallId: z.string(), inputTextDelta: z.string() }),
  z.object({
    type: z.literal('tool-input-available'),
    toolCallId: z.string(),
    toolName: z.string(),
    input: z.unknown(),
    dynamic: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('tool-output-available'),
    toolCallId: z.string(),
    output: z.unknown(),
    dynamic: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('tool-output-error'),
    toolCallId: z.string(),
    errorText: z.string(),
    dynamic: z.boolean().optional(),
  }),
  z.object({ type: z.literal('tool-output-denied'), toolCallId: z.string() }),
  z.object({
    type: z.literal('tool-approval-request'),
    approvalId: z.string(),
    toolCallId: z.string(),
  }),
  z.object({
    type: z.literal('tool-approval-response'),
    approvalId: z.string(),
    approved: z.boolean(),
    reason: z.string().optional(),
  }),
  z.object({ type: z.literal('file'), url: z.string(), mediaType: z.string() }),
  z.object({
    type: z.templateLiteral(['data-', z.string()]),
    id: z.string().optional(),
    data: z.unknown(),
    transient: z.boolean().optional(),
  }),
  z.object({ type: z.literal('message-metadata'), messageMetadata: z.unknown() }),
  z.object({ type: z.literal('error'), errorText: z.string() }),
  z.object({
    type: z.literal('finish'),
    finishReason: z
      .enum(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'interrupted', 'other'])
      .optional(),
    messageMetadata: z.unknown().optional(),
  }),
  z.object({ type: z.literal('abort'), reason: z.string().optional() }),
]);

export type UIMessageChunk = z.infer<typeof UIMessageChunkSchema>;
export type UIFinishReason = NonNullable<Extract<UIMessageChunk, { type: 'finish' }>['finishReason']>;

/** What Cairn puts in the message's metadata (`UIMessage.metadata`) on `start` and `finish`. */
export const CairnUIMessageMetadataSchema = z.object({
  conversationId: z.string(),
  /** The model that answered (`provider/modelId`), on `finish`. */
  model: z.string().optional(),
  /** Tokens of the whole turn, on `finish`. */
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).passthrough().optional(),
  /** The CairnError code, on `finish` after a failure. */
  errorCode: z.string().optional(),
});

export type CairnUIMessageMetadata = z.infer<typeof CairnUIMessageMetadataSchema>;
