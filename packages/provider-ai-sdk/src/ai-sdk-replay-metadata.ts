import type { JsonValue, ProviderMetadata } from '@cairn/core';

// What the AI SDK model returns for replay (`providerMetadata`: Anthropic's thinking signature,
// Google's thought signature on a function call) is kept whole under this adapter's namespace, and
// given back as the part's `providerOptions` only to a model of the same provider. The namespace
// always exists on reasoning this adapter read, even empty: it marks the reasoning as this
// provider's to replay, where reasoning from elsewhere is dropped.

/** The `providerMetadata` to store for an AI SDK part's metadata (`{}` when it has none). */
export function replayMetadata(provider: string, metadata: unknown): ProviderMetadata {
  return { [provider]: jsonRecord(metadata) };
}

// The message's text is one part when replayed: the replay data of its text blocks (Google's
// thought signature on the last one) is kept once, under a key no call id is given.
const TEXT_KEY = '$text';

/** The message-level `providerMetadata` to store for a text block's metadata. */
export function textReplayMetadata(provider: string, metadata: unknown): ProviderMetadata {
  return { [provider]: { [TEXT_KEY]: jsonRecord(metadata) } };
}

/** The `providerOptions` of the message's text part, when this adapter kept any. */
export function textReplayData(metadata: ProviderMetadata | undefined, provider: string) {
  return toolCallReplayData(metadata, provider, TEXT_KEY);
}

/** The `providerOptions` of a reasoning part this adapter read, or `undefined` when it did not. */
export function ownReplayData(metadata: ProviderMetadata | undefined, provider: string) {
  return metadata?.[provider] as ProviderMetadata | undefined;
}

/** The `providerOptions` of a tool call: its metadata, keyed by call id in the message's namespace. */
export function toolCallReplayData(
  metadata: ProviderMetadata | undefined,
  provider: string,
  callId: string,
): ProviderMetadata | undefined {
  const data = metadata?.[provider]?.[callId];
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as ProviderMetadata)
    : undefined;
}

// The AI SDK's JSON objects may hold `undefined`; Cairn's log holds JSON only.
function jsonRecord(value: unknown): Record<string, JsonValue> {
  if (typeof value !== 'object' || value === null) return {};
  return JSON.parse(JSON.stringify(value)) as Record<string, JsonValue>;
}
