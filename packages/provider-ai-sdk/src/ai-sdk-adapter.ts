import {
  assertSupportedParts,
  CairnError,
  definedFields,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelRequest,
} from '@cairn/core';
import { createModelAdapter, resolveModelAdapterOptions } from '@cairn/provider-utils';
import type { AiSdkAdapterOptions } from './ai-sdk-adapter-options.js';
import { type AiSdkCallOptions, buildAiSdkCallOptions } from './ai-sdk-call-options.js';
import { type AiSdkLanguageModel, SPECIFICATION_VERSIONS } from './ai-sdk-language-model.js';
import { classifyAiSdkError } from './classify-ai-sdk-error.js';
import { downloadUnsupportedUrls, type SupportedUrls } from './download-unsupported-urls.js';
import { type AiSdkGenerateResult, readAiSdkContent } from './read-ai-sdk-content.js';
import { type AiSdkStreamPart, readAiSdkStream } from './read-ai-sdk-stream.js';

const DEFAULT_CAPABILITIES: ModelCapabilities = {
  streaming: true,
  toolCalls: true,
  parallelToolCalls: true,
  reasoning: true,
  inputMediaTypes: ['image/*', 'application/pdf'],
  structuredOutput: true,
};

// The calls as every version makes them; the options are built for the model's version.
interface VersionedModel {
  supportedUrls?: PromiseLike<SupportedUrls> | SupportedUrls;
  doGenerate(options: AiSdkCallOptions): PromiseLike<AiSdkGenerateResult>;
  doStream(options: AiSdkCallOptions): PromiseLike<{ stream: ReadableStream<AiSdkStreamPart> }>;
}

/**
 * A `ModelAdapter` for any AI SDK language model — `LanguageModelV2` (AI SDK 5), `V3` (AI SDK 6)
 * or `V4` (AI SDK 7), told apart by its `specificationVersion`. Cairn calls the model's
 * `doGenerate` / `doStream` itself: AI SDK providers do not retry (the `ai` package's
 * `generateText` does, and is not used), so Cairn's retry policy is the only one.
 */
export function createAiSdkAdapter(
  languageModel: AiSdkLanguageModel,
  options: AiSdkAdapterOptions = {},
): ModelAdapter {
  const version = languageModel?.specificationVersion;
  if (!SPECIFICATION_VERSIONS.includes(version)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `ai-sdk: the model's specificationVersion is ${JSON.stringify(version)}; this adapter takes ${SPECIFICATION_VERSIONS.join(', ')} (AI SDK 5, 6 and 7 providers)`,
      { details: { specificationVersion: version ?? null } },
    );
  }
  const model = languageModel as unknown as VersionedModel;
  const provider = options.provider ?? languageModel.provider;
  const modelId = languageModel.modelId;
  const capabilities: ModelCapabilities = { ...DEFAULT_CAPABILITIES, ...options.capabilities };
  const classify = (error: unknown, signal: AbortSignal | undefined) =>
    classifyAiSdkError(error, provider, signal);

  // Refuses parts the model cannot take before anything is sent (`UNSUPPORTED_CONTENT`), and
  // downloads the URLs the model does not fetch itself, once for all attempts.
  async function prepare(request: ModelRequest, signal: AbortSignal | undefined): Promise<AiSdkCallOptions> {
    try {
      assertSupportedParts(request.messages, {
        provider,
        modelId,
        mediaTypes: capabilities.inputMediaTypes ?? [],
      });
      const supportedUrls = (await model.supportedUrls) ?? {};
      const messages = await downloadUnsupportedUrls(request.messages, supportedUrls, { signal });
      return buildAiSdkCallOptions(
        { ...request, messages },
        { version, provider, providerOptions: options.providerOptions, signal },
      );
    } catch (error) {
      throw classify(error, signal);
    }
  }

  // The stream's parts, without the `stream-start` that precedes any answer (so a failure before
  // the first real part is still retried), an `error` part thrown as the classified error.
  async function* readParts(stream: ReadableStream<AiSdkStreamPart>, signal: AbortSignal) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.type === 'stream-start') continue;
        if (value.type === 'error') throw classify(value.error, signal);
        yield value;
      }
    } finally {
      // Cancelling stops the provider's read of the HTTP body (a consumer that stopped early).
      await reader.cancel().catch(() => undefined);
    }
  }

  return createModelAdapter({
    provider,
    modelId,
    capabilities,
    maxRetries: resolveModelAdapterOptions(provider, {
      model: modelId,
      ...definedFields({ maxRetries: options.maxRetries }),
    }).maxRetries,
    prepare,
    send: async (callOptions, request) => {
      try {
        return await model.doGenerate(callOptions);
      } catch (error) {
        throw classify(error, request.signal);
      }
    },
    readResponse: (result, assembler) => readAiSdkContent(result, assembler, provider),
    open: async (callOptions, _request, signal) => {
      try {
        const { stream } = await model.doStream(callOptions);
        return readParts(stream, signal);
      } catch (error) {
        throw classify(error, signal);
      }
    },
    readEvents: (parts, sink) => readAiSdkStream(parts, sink, provider),
  });
}
