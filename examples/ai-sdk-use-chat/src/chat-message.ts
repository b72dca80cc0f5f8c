import type { UIMessage } from 'ai';

/**
 * What cairn-server puts in an answer's message metadata: the Cairn conversation it belongs to, the
 * model that wrote it and the tokens it took. Every field is optional: the first chunks of a
 * streamed answer may carry only some of them.
 */
export interface CairnMessageMetadata {
  conversationId?: string;
  model?: string;
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    totalTokens?: number;
  };
}

export type CairnUIMessage = UIMessage<CairnMessageMetadata>;

/** "gpt-x · 12 in / 34 out tokens", from what the metadata has. */
export function describeMetadata(metadata: CairnMessageMetadata | undefined): string | undefined {
  if (metadata === undefined) return undefined;
  const usage = metadata.usage;
  const tokens =
    usage?.inputTokens !== undefined || usage?.outputTokens !== undefined
      ? `${usage.inputTokens ?? 0} in / ${usage.outputTokens ?? 0} out tokens`
      : usage?.totalTokens !== undefined
        ? `${usage.totalTokens} tokens`
        : undefined;
  const line = [metadata.model, tokens].filter((item) => item !== undefined).join(' · ');
  return line === '' ? undefined : line;
}

/**
 * The error a failed request or turn gives `useChat`, for people: cairn-server's JSON error body
 * (`{ "error": { "code", "message" } }`, which the transport passes on as the message) as
 * "message (CODE)", anything else as it is.
 */
export function describeError(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { error?: { code?: unknown; message?: unknown } };
    const { code, message } = body.error ?? {};
    if (typeof message === 'string') return typeof code === 'string' ? `${message} (${code})` : message;
  } catch {
    // Not JSON: an error streamed by the turn, already text.
  }
  return error.message;
}
