import type { FinishReason, JsonValue, ProviderMetadata, TokenUsage } from '@cairn/core';

/** Response identity, reported once known (a later call fills in what an earlier one lacked). */
export interface StreamStartInfo {
  responseId?: string | undefined;
  modelId?: string | undefined;
}

export interface ReasoningEndInfo {
  /** The provider returned the reasoning encrypted (its data goes in `providerMetadata`). */
  redacted?: boolean;
  /** What replaying the block needs (Anthropic `signature`, Gemini `thoughtSignature`). */
  providerMetadata?: ProviderMetadata;
}

export interface ToolCallEndInfo {
  /** The complete JSON arguments; default: the concatenated `toolInputDelta`s. */
  arguments?: string;
  /** Kept on the `tool_use` event, and on the message under each namespace keyed by the call id. */
  providerMetadata?: ProviderMetadata;
}

/**
 * What an adapter reports while it reads a provider response, in provider-neutral pieces. Blocks
 * are named by the adapter's own `blockKey` (a content index, a part number); the machinery
 * gives them stable event ids. A block key reused after its block ended starts a new block.
 */
export interface StreamSink {
  start(info: StreamStartInfo): void;
  textDelta(blockKey: string, delta: string): void;
  /** Closes a text block now; open blocks are closed anyway before `finish`. */
  textEnd(blockKey: string): void;
  reasoningDelta(blockKey: string, delta: string): void;
  /** Closes a reasoning block (one that never had a delta, a redacted one, is created closed). */
  reasoningEnd(blockKey: string, info?: ReasoningEndInfo): void;
  toolCallStart(id: string, toolName: string): void;
  toolInputDelta(id: string, delta: string): void;
  toolCallEnd(id: string, info?: ToolCallEndInfo): void;
  /** Cumulative usage of the call; the last report wins. */
  usage(usage: TokenUsage): void;
  /** Merged (per namespace) into the assistant message's `providerMetadata`. */
  metadata(metadata: ProviderMetadata): void;
  /** The provider's finish reason, unified and raw; may come before trailing usage. */
  finish(reason: FinishReason, rawReason?: string): void;
  /** A provider event or part the adapter does not know: passed on as an `unknown` event, kept. */
  unknown(raw: JsonValue): void;
}
