import type { ProviderMetadata } from '@cairn/core';

// Where Gemini thought signatures live between turns, all under the `gemini` namespace:
// - a reasoning part: `{ gemini: { thoughtSignature } }` on the part;
// - the answer's text: `{ gemini: { thoughtSignature } }` on the message;
// - a function call: `{ gemini: { [toolCallId]: { thoughtSignature } } }` on the message.
// Only this namespace is read back, so another provider's signatures never reach Gemini.

export const GEMINI_METADATA_KEY = 'gemini';

/** The signature stored directly in the `gemini` namespace (a reasoning part's or the message text's). */
export function readThoughtSignature(metadata: ProviderMetadata | undefined): string | undefined {
  const signature = metadata?.[GEMINI_METADATA_KEY]?.thoughtSignature;
  return typeof signature === 'string' ? signature : undefined;
}

/** The signature of one function call, kept on its message under the tool call's id. */
export function readToolCallThoughtSignature(
  metadata: ProviderMetadata | undefined,
  toolCallId: string,
): string | undefined {
  const entry = metadata?.[GEMINI_METADATA_KEY]?.[toolCallId];
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const signature = entry.thoughtSignature;
  return typeof signature === 'string' ? signature : undefined;
}

/**
 * `{ gemini: { thoughtSignature } }`: a reasoning part's or the message text's metadata, or a tool
 * call's, which the result assembler files on the message under the call's id.
 */
export function thoughtSignatureMetadata(thoughtSignature: string): ProviderMetadata {
  return { [GEMINI_METADATA_KEY]: { thoughtSignature } };
}
