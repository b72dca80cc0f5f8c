import { z } from 'zod';
import { ProviderMetadataSchema } from './provider-metadata.js';

/**
 * One block of model reasoning ("thinking") kept on the assistant message that produced it, so UIs
 * can show it and the same provider can be sent it back. The provider's signature (Anthropic
 * `signature`, Gemini `thoughtSignature`) is in `providerMetadata`; other providers drop the block.
 */
export const ReasoningPartSchema = z.object({
  text: z.string(),
  /** The provider returned the reasoning encrypted: `text` is empty, the data is in `providerMetadata`. */
  redacted: z.boolean().optional(),
  providerMetadata: ProviderMetadataSchema.optional(),
});

export type ReasoningPart = z.infer<typeof ReasoningPartSchema>;
