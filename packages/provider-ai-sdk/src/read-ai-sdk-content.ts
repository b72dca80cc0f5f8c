import type { StreamSink } from '@cairn/provider-utils';
import type { AiSdkUsage } from './ai-sdk-types.js';
import type { AiSdkFinishReason } from './map-ai-sdk-finish-reason.js';
import { type AiSdkStreamPart, readAiSdkStream } from './read-ai-sdk-stream.js';

/** What `doGenerate` returns, in the fields every version shares. */
export interface AiSdkGenerateResult {
  content: Array<{ type: string; text?: string; providerMetadata?: unknown } & Record<string, unknown>>;
  finishReason: AiSdkFinishReason;
  usage: AiSdkUsage;
  response?: { id?: string | undefined; modelId?: string | undefined } | undefined;
}

/**
 * A whole `doGenerate` result, reported to the sink as the stream parts it would have been, so
 * `generate` and `stream` build the same message through the same reader.
 */
export async function readAiSdkContent(
  result: AiSdkGenerateResult,
  sink: StreamSink,
  provider: string,
): Promise<void> {
  await readAiSdkStream(generatedParts(result), sink, provider);
}

function* generatedParts(result: AiSdkGenerateResult): Generator<AiSdkStreamPart> {
  yield { type: 'response-metadata', id: result.response?.id, modelId: result.response?.modelId };
  for (const [index, part] of result.content.entries()) {
    const id = `${index}`;
    switch (part.type) {
      case 'text':
        yield { type: 'text-delta', id, delta: part.text ?? '' };
        yield { type: 'text-end', id, providerMetadata: part.providerMetadata };
        break;
      case 'reasoning':
        yield { type: 'reasoning-delta', id, delta: part.text ?? '' };
        yield { type: 'reasoning-end', id, providerMetadata: part.providerMetadata };
        break;
      default:
        // tool-call as it is streamed; anything else goes on as an unknown part.
        yield part as AiSdkStreamPart;
    }
  }
  yield { type: 'finish', usage: result.usage, finishReason: result.finishReason };
}
