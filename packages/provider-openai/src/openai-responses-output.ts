import type { CairnError, FinishReason, JsonValue } from '@cairn/core';
import { classifyHttpError, type StreamSink } from '@cairn/provider-utils';
import type {
  Response,
  ResponseOutputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { convertOpenAIResponsesUsage } from './convert-openai-usage.js';
import type { OpenAIResponsesItemRef } from './openai-responses-metadata.js';

/**
 * What reading one response's output items keeps, the same for a streamed and a whole response:
 * the item order recorded in the message's `providerMetadata.openai` (so reasoning is replayed in
 * place) and the call id of each function-call item (stream deltas name the item, not the call).
 */
export class OpenAIResponsesOutput {
  readonly items: OpenAIResponsesItemRef[] = [];
  private readonly callIds = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(private readonly sink: StreamSink) {}

  callIdOf(itemId: string): string | undefined {
    return this.callIds.get(itemId);
  }

  /** An item has begun: a function call opens its tool call. Reports an item only once. */
  begin(item: ResponseOutputItem): void {
    if (item.type !== 'function_call' || item.id === undefined || this.callIds.has(item.id)) return;
    this.callIds.set(item.id, item.call_id);
    this.sink.toolCallStart(item.call_id, item.name);
  }

  /**
   * An item is complete. `streamed` items had their text and reasoning deltas reported already;
   * otherwise (a whole response) they are reported here as one delta each.
   */
  end(item: ResponseOutputItem, streamed: boolean): void {
    const id = 'id' in item && typeof item.id === 'string' ? item.id : undefined;
    if (id !== undefined && this.seen.has(id)) return;
    if (id !== undefined) this.seen.add(id);
    switch (item.type) {
      case 'reasoning':
        this.reasoning(item, streamed);
        return;
      case 'message':
        this.items.push({ type: 'message', id: item.id });
        if (!streamed) {
          for (const part of item.content) {
            const text = part.type === 'output_text' ? part.text : part.refusal;
            if (text !== '') this.sink.textDelta(item.id, text);
          }
        }
        this.sink.textEnd(item.id);
        return;
      case 'function_call': {
        const itemId = item.id ?? item.call_id;
        this.begin({ ...item, id: itemId });
        this.items.push({ type: 'function_call', id: itemId, callId: item.call_id });
        this.sink.toolCallEnd(item.call_id, { arguments: item.arguments });
        return;
      }
      default:
        // Hosted tools' items (web search, code interpreter, …) are never requested by this adapter.
        this.sink.unknown(item as unknown as JsonValue);
    }
  }

  /** One reasoning part per summary part; the first carries the item id and its encrypted content. */
  private reasoning(item: ResponseReasoningItem, streamed: boolean): void {
    this.items.push({ type: 'reasoning', id: item.id });
    const first = {
      openai: {
        itemId: item.id,
        ...(typeof item.encrypted_content === 'string' ? { encryptedContent: item.encrypted_content } : {}),
      },
    };
    const parts = item.summary.length === 0 ? [''] : item.summary.map((part) => part.text);
    parts.forEach((text, index) => {
      const key = reasoningKey(item.id, index);
      if (!streamed && text !== '') this.sink.reasoningDelta(key, text);
      this.sink.reasoningEnd(key, {
        providerMetadata: index === 0 ? first : { openai: { itemId: item.id } },
      });
    });
  }

  /** The end of the response: usage, the item order, and the finish reason (or its failure). */
  finish(response: Response): void {
    if (response.status === 'failed') throw responseFailed(response);
    this.sink.start({ responseId: response.id, modelId: response.model });
    if (response.usage) this.sink.usage(convertOpenAIResponsesUsage(response.usage));
    this.sink.metadata({ openai: { items: this.items as unknown as JsonValue } });
    const { reason, rawReason } = mapOpenAIResponsesStatus(response);
    this.sink.finish(reason, rawReason);
  }
}

export const reasoningKey = (itemId: string, summaryIndex: number): string => `${itemId}:${summaryIndex}`;

/**
 * The finish reason: a completed response stops (the result assembler makes it `tool_calls` when
 * the message has calls); an incomplete one says why in `incomplete_details.reason`, kept raw.
 */
export function mapOpenAIResponsesStatus(response: Pick<Response, 'status' | 'incomplete_details'>): {
  reason: FinishReason;
  rawReason?: string;
} {
  if (response.status === 'completed') return { reason: 'stop', rawReason: 'completed' };
  const why = response.incomplete_details?.reason;
  if (why === 'max_output_tokens') return { reason: 'length', rawReason: why };
  if (why === 'content_filter') return { reason: 'content_filter', rawReason: why };
  return response.status === undefined
    ? { reason: 'other' }
    : { reason: 'other', rawReason: why ?? response.status };
}

/** A response the API ended as `failed`: classified as its error's status would be, the error kept. */
export function responseFailed(response: Pick<Response, 'error' | 'id'>): CairnError {
  return classifyHttpError({
    status: 500,
    headers: new Headers(),
    body: { error: response.error },
    message: response.error?.message ?? `response ${response.id} failed`,
    provider: 'openai',
  });
}
