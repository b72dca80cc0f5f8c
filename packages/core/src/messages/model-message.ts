import { z } from 'zod';
import { MessageContentSchema } from '../content/content-part.js';
import {
  OpenAISystemMessageSchema,
  OpenAIToolMessageSchema,
  openAIAssistantMessageObject,
  requireContentOrToolCalls,
} from './openai-chat-message.js';
import { ProviderMetadataSchema } from './provider-metadata.js';
import { ReasoningPartSchema } from './reasoning-part.js';

// What every ModelAdapter receives (and returns for the assistant): the OpenAI Chat Completions
// shape plus the optional, provider-neutral data an adapter needs to replay history faithfully —
// `providerMetadata` (signatures, response ids), `reasoning` on assistant messages, and `isError`
// on tool results (Anthropic `is_error`, Gemini error responses). User and tool messages carry
// Cairn's content parts (images, files) rather than one provider's: each adapter maps them to its
// wire form (`toOpenAIMessage` for OpenAI Chat) and refuses what its model cannot take.

const providerMetadata = ProviderMetadataSchema.optional();

export const ModelSystemMessageSchema = OpenAISystemMessageSchema.extend({ providerMetadata });

export const ModelUserMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: MessageContentSchema,
  providerMetadata,
});

export const ModelAssistantMessageSchema = requireContentOrToolCalls(
  openAIAssistantMessageObject.extend({
    reasoning: z.array(ReasoningPartSchema).optional(),
    providerMetadata,
  }),
);

export const ModelToolMessageSchema = OpenAIToolMessageSchema.extend({
  /** Text, or parts: a tool may return an image (Claude Code's Read of a PNG). */
  content: MessageContentSchema,
  /** The tool reported a failure; the content says why. */
  isError: z.boolean().optional(),
  providerMetadata,
});

export const ModelMessageSchema = z.discriminatedUnion('role', [
  ModelSystemMessageSchema,
  ModelUserMessageSchema,
  ModelAssistantMessageSchema,
  ModelToolMessageSchema,
]);

export type ModelSystemMessage = z.infer<typeof ModelSystemMessageSchema>;
export type ModelUserMessage = z.infer<typeof ModelUserMessageSchema>;
export type ModelAssistantMessage = z.infer<typeof ModelAssistantMessageSchema>;
export type ModelToolMessage = z.infer<typeof ModelToolMessageSchema>;
export type ModelMessage = z.infer<typeof ModelMessageSchema>;
