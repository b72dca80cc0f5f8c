import type { ProviderMetadata } from '@cairn/core';
import type { StreamSink } from '@cairn/provider-utils';
import { replayMetadata, textReplayMetadata } from './ai-sdk-replay-metadata.js';
import type { AiSdkUsage } from './ai-sdk-types.js';
import { unknownPartJson } from './ai-sdk-unknown-part.js';
import { convertAiSdkUsage } from './convert-ai-sdk-usage.js';
import { type AiSdkFinishReason, mapAiSdkFinishReason } from './map-ai-sdk-finish-reason.js';

/**
 * A stream part of any specification version. V2, V3 and V4 name the parts Cairn reads the same
 * way; they differ in `usage` and `finishReason` (see their converters) and in parts only some
 * versions have, which are passed on as `unknown`.
 */
export interface AiSdkStreamPart {
  type: string;
  id?: string | undefined;
  delta?: string;
  toolName?: string;
  toolCallId?: string;
  input?: string;
  providerExecuted?: boolean;
  providerMetadata?: unknown;
  modelId?: string | undefined;
  usage?: AiSdkUsage;
  finishReason?: AiSdkFinishReason;
  rawValue?: unknown;
  error?: unknown;
}

/**
 * Reads an AI SDK model's stream parts into the sink: text and reasoning by their ids, tool calls
 * from their input deltas and the final `tool-call` (its `input` is the whole argument JSON),
 * `response-metadata` as the response identity, `finish` as usage and the finish reason. An `error`
 * part ends the read by throwing its error (the adapter classifies it): a model that failed
 * mid-answer has no answer to finish.
 */
export async function readAiSdkStream(
  parts: AsyncIterable<AiSdkStreamPart> | Iterable<AiSdkStreamPart>,
  sink: StreamSink,
  provider: string,
): Promise<void> {
  // Replay data (Anthropic's signature, Google's thought signature) may come on any of a text or
  // reasoning block's parts.
  const blockMetadata = new Map<string, Record<string, unknown>>();
  const addMetadata = (key: string, metadata: unknown) => {
    if (typeof metadata !== 'object' || metadata === null) return;
    blockMetadata.set(key, mergeNamespaces(blockMetadata.get(key) ?? {}, metadata));
  };
  const takeMetadata = (key: string) => {
    const metadata = blockMetadata.get(key);
    blockMetadata.delete(key);
    return metadata;
  };
  const startedCalls = new Set<string>();
  for await (const part of parts) {
    switch (part.type) {
      case 'stream-start':
      case 'ping':
      case 'tool-input-end':
        break;
      case 'response-metadata':
        sink.start({ responseId: part.id, modelId: part.modelId });
        break;
      case 'text-start':
        addMetadata(`text:${part.id}`, part.providerMetadata);
        break;
      case 'text-delta':
        addMetadata(`text:${part.id}`, part.providerMetadata);
        if (part.delta !== '') sink.textDelta(String(part.id), String(part.delta));
        break;
      case 'text-end': {
        addMetadata(`text:${part.id}`, part.providerMetadata);
        const metadata = takeMetadata(`text:${part.id}`);
        if (hasMetadata(metadata)) sink.metadata(textReplayMetadata(provider, metadata));
        sink.textEnd(String(part.id));
        break;
      }
      case 'reasoning-start':
        addMetadata(`reasoning:${part.id}`, part.providerMetadata);
        break;
      case 'reasoning-delta':
        addMetadata(`reasoning:${part.id}`, part.providerMetadata);
        if (part.delta !== '') sink.reasoningDelta(String(part.id), String(part.delta));
        break;
      case 'reasoning-end': {
        addMetadata(`reasoning:${part.id}`, part.providerMetadata);
        const metadata = takeMetadata(`reasoning:${part.id}`);
        sink.reasoningEnd(String(part.id), { providerMetadata: replayMetadata(provider, metadata) });
        break;
      }
      case 'tool-input-start':
        if (part.providerExecuted === true) sink.unknown(unknownPartJson(part));
        else {
          startedCalls.add(String(part.id));
          sink.toolCallStart(String(part.id), String(part.toolName));
        }
        break;
      case 'tool-input-delta':
        if (startedCalls.has(String(part.id)) && part.delta !== '')
          sink.toolInputDelta(String(part.id), String(part.delta));
        break;
      case 'tool-call': {
        // A tool the provider ran itself is not Cairn's to run: it is kept, as an unknown part.
        if (part.providerExecuted === true) {
          sink.unknown(unknownPartJson(part));
          break;
        }
        const id = String(part.toolCallId);
        if (!startedCalls.has(id)) sink.toolCallStart(id, String(part.toolName));
        startedCalls.delete(id);
        sink.toolCallEnd(id, {
          arguments: part.input ?? '',
          ...(hasMetadata(part.providerMetadata)
            ? { providerMetadata: replayMetadata(provider, part.providerMetadata) }
            : {}),
        });
        break;
      }
      case 'finish':
        if (part.usage !== undefined) sink.usage(convertAiSdkUsage(part.usage));
        {
          const { reason, rawReason } = mapAiSdkFinishReason(part.finishReason ?? 'other');
          sink.finish(reason, rawReason);
        }
        break;
      case 'raw':
        sink.unknown(unknownPartJson(part.rawValue));
        break;
      case 'error':
        throw part.error;
      default:
        sink.unknown(unknownPartJson(part));
    }
  }
}

function hasMetadata(metadata: unknown): boolean {
  return typeof metadata === 'object' && metadata !== null && Object.keys(metadata).length > 0;
}

function mergeNamespaces(into: Record<string, unknown>, metadata: object): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...into };
  for (const [namespace, values] of Object.entries(metadata as ProviderMetadata)) {
    merged[namespace] = { ...(merged[namespace] as object | undefined), ...values };
  }
  return merged;
}
