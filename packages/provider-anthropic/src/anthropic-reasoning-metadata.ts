import type { RedactedThinkingBlockParam, ThinkingBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ReasoningPart } from '@cairn/core';
import type { ReasoningEndInfo } from '@cairn/provider-utils';

// What a thinking block needs to be sent back is kept in the reasoning part's
// `providerMetadata.anthropic`: `signature` for `thinking`, `data` for `redacted_thinking`.

/** The end of a `thinking` block; without a signature it cannot be replayed, so none is kept. */
export function thinkingEndInfo(signature: string): ReasoningEndInfo {
  return signature === '' ? {} : { providerMetadata: { anthropic: { signature } } };
}

/** The end of a `redacted_thinking` block: no readable text, the encrypted `data` kept for replay. */
export function redactedThinkingEndInfo(data: string): ReasoningEndInfo {
  return { redacted: true, providerMetadata: { anthropic: { data } } };
}

/**
 * The block to send a reasoning part back as. Only Anthropic's own thinking can be replayed, with
 * the signature (or encrypted data) it came with; reasoning from another provider, or without
 * one, gives `undefined` and is dropped.
 */
export function toAnthropicThinkingBlock(
  part: ReasoningPart,
): ThinkingBlockParam | RedactedThinkingBlockParam | undefined {
  const anthropic = part.providerMetadata?.anthropic;
  if (typeof anthropic?.data === 'string') return { type: 'redacted_thinking', data: anthropic.data };
  if (part.redacted) return undefined;
  if (typeof anthropic?.signature === 'string') {
    return { type: 'thinking', thinking: part.text, signature: anthropic.signature };
  }
  return undefined;
}
