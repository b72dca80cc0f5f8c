import { z } from 'zod';
import { ProviderMetadataSchema } from './provider-metadata.js';

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

// The request shape every ModelAdapter accepts: OpenAI Chat Completions messages (text content),
// strict so that no UI or storage field can leak into a provider request, plus two optional
// provider-neutral extensions an adapter needs to replay history faithfully:
// `providerMetadata` (see ProviderMetadataSchema) and `isError` on tool results (Anthropic's
// `is_error`, Gemini's error responses). The OpenAI adapter drops both before sending.

const providerMetadata = ProviderMetadataSchema.optional();

export const OpenAISystemMessageSchema = z.strictObject({
  role: z.literal('system'),
  content: z.string(),
  providerMetadata,
});

export const OpenAIUserMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: z.string(),
  providerMetadata,
});

export const OpenAIAssistantMessageSchema = z
  .strictObject({
    role: z.literal('assistant'),
    /** `null` only when the message carries tool calls and no text. */
    content: z.string().nullable(),
    tool_calls: z.array(OpenAIToolCallSchema).min(1).optional(),
    providerMetadata,
  })
  .refine((message) => message.content !== null || message.tool_calls !== undefined, {
    message: 'an assistant message needs content or tool_calls',
    path: ['content'],
  });

export const OpenAIToolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  content: z.string(),
  tool_call_id: z.string().min(1),
  /** The tool reported a failure; the content says why. */
  isError: z.boolean().optional(),
  providerMetadata,
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
