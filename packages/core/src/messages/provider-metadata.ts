import { z } from 'zod';
import { JsonValueSchema } from './json-value.js';

/**
 * Provider-specific data that must survive a round trip (Anthropic thinking signatures, Gemini
 * thought signatures, response ids), namespaced by provider: `{ anthropic: { … }, gemini: { … } }`.
 * An adapter reads only its own namespace and ignores the others, so a conversation can move
 * between providers without sending one provider's data to another. Data that belongs to one part
 * of a message (a tool call) is keyed inside the namespace by that part's id.
 */
export const ProviderMetadataSchema = z.record(z.string().min(1), z.record(z.string(), JsonValueSchema));

export type ProviderMetadata = z.infer<typeof ProviderMetadataSchema>;
