import type { ModelMessage, ProviderMetadata, ReasoningPart } from '@cairn/core';

// Data another provider wrote (thinking signatures, response ids) means nothing to this one, and
// some providers refuse what they did not sign: each message keeps only this provider's namespace.
function ownMetadata(metadata: ProviderMetadata | undefined, provider: string): ProviderMetadata | undefined {
  if (metadata === undefined) return undefined;
  const own = metadata[provider];
  return own === undefined ? undefined : { [provider]: own };
}

function ownReasoning(parts: ReasoningPart[], provider: string): ReasoningPart[] {
  return parts.filter(
    (part) => part.providerMetadata === undefined || part.providerMetadata[provider] !== undefined,
  );
}

/**
 * The request for `provider`: the same conversation, with the provider-specific data of other
 * providers left out (provider portability: a conversation started on one continues on another).
 */
export function messagesForProvider(messages: readonly ModelMessage[], provider: string): ModelMessage[] {
  return messages.map((message) => {
    const metadata = message.providerMetadata;
    const reasoning = message.role === 'assistant' ? message.reasoning : undefined;
    if (metadata === undefined && reasoning === undefined) return message;
    const copy = { ...message } as ModelMessage & { reasoning?: ReasoningPart[] };
    const own = ownMetadata(metadata, provider);
    if (own === undefined) delete copy.providerMetadata;
    else copy.providerMetadata = own;
    if (reasoning !== undefined) {
      const kept = ownReasoning(reasoning, provider);
      if (kept.length === 0) delete copy.reasoning;
      else copy.reasoning = kept;
    }
    return copy;
  });
}
