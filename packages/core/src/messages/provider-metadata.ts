import { z } from 'zod';

/**
 * Provider-specific data that must survive a round trip (Anthropic thinking signatures, Gemini
 * thought signatures, response ids), namespaced by provider: `{ anthropic: { … }, gemini: { … } }`.
 * An adapter reads only its own namespace and ignores the others, so a conversation can move
 * between providers without sending one provider's data to another.
 */
export const ProviderMetadataSchema = z.record(z.string().min(1), z.record(z.string(), z.unknown()));

export type ProviderMetadata = z.infer<typeof ProviderMetadataSchema>;
