import type { ProviderMetadata, ReasoningPart } from '@cairn/core';

/**
 * One output item of a response, as `providerMetadata.openai.items` lists them in the order the
 * model wrote them, so a reasoning item is replayed right before the item that followed it.
 */
export type OpenAIResponsesItemRef =
  | { type: 'reasoning'; id: string }
  | { type: 'message'; id: string }
  | { type: 'function_call'; id: string; callId: string };

/** What the Responses adapter keeps in an assistant message's `providerMetadata.openai`. */
export interface OpenAIResponsesMessageMetadata {
  items: OpenAIResponsesItemRef[];
}

/** What a reasoning part keeps in `providerMetadata.openai`; the first part of an item carries its encrypted content. */
export interface OpenAIResponsesReasoningMetadata {
  itemId: string;
  encryptedContent?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function itemRef(value: unknown): OpenAIResponsesItemRef | undefined {
  if (!isObject(value) || typeof value.id !== 'string') return undefined;
  if (value.type === 'reasoning' || value.type === 'message') return { type: value.type, id: value.id };
  if (value.type === 'function_call' && typeof value.callId === 'string') {
    return { type: 'function_call', id: value.id, callId: value.callId };
  }
  return undefined;
}

/**
 * The item order of a message the Responses adapter produced, or `undefined` for any other
 * message (another provider's, Chat Completions', one written by hand). Read defensively: the log
 * may hold anything under the namespace.
 */
export function readResponsesMessageMetadata(
  metadata: ProviderMetadata | undefined,
): OpenAIResponsesMessageMetadata | undefined {
  const openai = metadata?.openai;
  if (!isObject(openai) || !Array.isArray(openai.items)) return undefined;
  const items = openai.items.map(itemRef);
  if (items.some((item) => item === undefined)) return undefined;
  return { items: items as OpenAIResponsesItemRef[] };
}

export function readResponsesReasoningMetadata(
  part: ReasoningPart,
): OpenAIResponsesReasoningMetadata | undefined {
  const openai = part.providerMetadata?.openai;
  if (!isObject(openai) || typeof openai.itemId !== 'string') return undefined;
  return typeof openai.encryptedContent === 'string'
    ? { itemId: openai.itemId, encryptedContent: openai.encryptedContent }
    : { itemId: openai.itemId };
}
