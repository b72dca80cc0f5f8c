import { z } from 'zod';

/** One function call requested by the assistant, exactly as in the OpenAI Chat Completions API. */
export const OpenAIToolCallSchema = z.object({
  /** Unique within the conversation; the matching `tool` message carries it as `tool_call_id`. */
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    /** The arguments as the model produced them: a JSON string, kept verbatim even if invalid. */
    arguments: z.string(),
  }),
});

export type OpenAIToolCall = z.infer<typeof OpenAIToolCallSchema>;

// OpenAI Chat Completions text messages, strict: what `toOpenAIMessage` produces and the OpenAI
// API accepts as is. No UI, storage or provider field can slip through.

export const OpenAISystemMessageSchema = z.strictObject({
  role: z.literal('system'),
  content: z.string(),
});

/** A content part of an OpenAI Chat Completions user message. */
export const OpenAIUserContentPartSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({
    type: z.literal('image_url'),
    /** An `https:` URL or a `data:<media type>;base64,…` URL. */
    image_url: z.strictObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
  }),
  z.strictObject({
    type: z.literal('file'),
    /** A PDF (or other document) as a `data:` URL, with its file name. */
    file: z.strictObject({ filename: z.string().min(1).optional(), file_data: z.string().min(1) }),
  }),
]);

export type OpenAIUserContentPart = z.infer<typeof OpenAIUserContentPartSchema>;

export const OpenAIUserMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(OpenAIUserContentPartSchema).min(1)]),
});

/** The assistant message before its cross-field rule; extended by `ModelAssistantMessageSchema`. */
export const openAIAssistantMessageObject = z.strictObject({
  role: z.literal('assistant'),
  /** `null` only when the message carries tool calls and no text. */
  content: z.string().nullable(),
  tool_calls: z.array(OpenAIToolCallSchema).min(1).optional(),
});

/** Providers reject an assistant message with neither text nor tool calls. */
export function requireContentOrToolCalls<
  T extends z.ZodType<{ content: string | null; tool_calls?: unknown }>,
>(schema: T): T {
  return schema.refine((message) => message.content !== null || message.tool_calls !== undefined, {
    message: 'an assistant message needs content or tool_calls',
    path: ['content'],
  });
}

export const OpenAIAssistantMessageSchema = requireContentOrToolCalls(openAIAssistantMessageObject);

export const OpenAIToolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  content: z.string(),
  tool_call_id: z.string().min(1),
});

export const OpenAIChatMessageSchema = z.discriminatedUnion('role', [
  OpenAISystemMessageSchema,
  OpenAIUserMessageSchema,
  OpenAIAssistantMessageSchema,
  OpenAIToolMessageSchema,
]);

export type OpenAISystemMessage = z.infer<typeof OpenAISystemMessageSchema>;
export type OpenAIUserMessage = z.infer<typeof OpenAIUserMessageSchema>;
export type OpenAIAssistantMessage = z.infer<typeof OpenAIAssistantMessageSchema>;
export type OpenAIToolMessage = z.infer<typeof OpenAIToolMessageSchema>;
export type OpenAIChatMessage = z.infer<typeof OpenAIChatMessageSchema>;
