import {
  assertSupportedParts,
  CairnError,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResult,
  type ModelStream,
} from '@cairn/core';
import {
  createModelStream,
  createResultAssembler,
  resolveModelAdapterOptions,
  retryStream,
  withRetry,
} from '@cairn/provider-utils';
import type { AiSdkAdapterOptions } from './ai-sdk-adapter-options.js';
import { type AiSdkCallOptions, buildAiSdkCallOptions } from './ai-sdk-call-options.js';
import {
  type AiSdkLanguageModel,
  SPECIFICATION_VERSIONS,
  type SpecificationVersion,
} from './ai-sdk-language-model.js';
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
  model: AiSdkLanguageModel,
  options: AiSdkAdapterOptions = {},
): ModelAdapter {
  return new AiSdkAdapter(model, options);
}

class AiSdkAdapter implements ModelAdapter {
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  private readonly model: VersionedModel;
  private readonly version: SpecificationVersion;
  private readonly maxRetries: number;
  private readonly options: AiSdkAdapterOptions;

  constructor(model: AiSdkLanguageModel, options: AiSdkAdapterOptions) {
    const version = model?.specificationVersion;
    if (!SPECIFICATION_VERSIONS.includes(version)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `ai-sdk: the model's specificationVersion is ${JSON.stringify(version)}; this adapter takes ${SPECIFICATION_VERSIONS.join(', ')} (AI SDK 5, 6 and 7 providers)`,
        { details: { specificationVersion: version ?? null } },
      );
    }
    this.version = version;
    this.model = model as unknown as VersionedModel;
    this.provider = options.provider ?? model.provider;
    this.modelId = model.modelId;
    this.maxRetries = resolveModelAdapterOptions(this.provider, {
      model: model.modelId,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    }).maxRetries;
    this.capabilities = { ...DEFAULT_CAPABILITIES, ...options.capabilities };
    this.options = options;
  }

  async generate(request: ModelRequest): Promise<ModelResult> {
    const { signal } = request;
    try {
      const callOptions = await this.callOptions(request, signal);
      const result = await withRetry(async () => {
        try {
          return await this.model.doGenerate(callOptions);
        } catch (error) {
          throw classifyAiSdkError(error, this.provider, signal);
        }
      }, this.retryOptions(signal));
      const assembler = createResultAssembler();
      await readAiSdkContent(result, assembler, this.provider);
      return assembler.complete();
    } catch (error) {
      throw classifyAiSdkError(error, this.provider, signal);
    }
  }

  stream(request: ModelRequest): ModelStream {
    return createModelStream(
      async (sink, signal) => {
        try {
          const callOptions = await this.callOptions(request, signal);
          const parts = retryStream(async () => {
            try {
              const { stream } = await this.model.doStream(callOptions);
              return this.readParts(stream, signal);
            } catch (error) {
              throw classifyAiSdkError(error, this.provider, signal);
            }
          }, this.retryOptions(signal));
          await readAiSdkStream(parts, sink, this.provider);
        } catch (error) {
          throw classifyAiSdkError(error, this.provider, signal);
        }
      },
      { provider: this.provider, ...(request.signal ? { signal: request.signal } : {}) },
    );
  }

  /**
   * The stream's parts, without the `stream-start` that precedes any answer (so a failure before
   * the first real part is still retried), an `error` part thrown as the classified error.
   */
  private async *readParts(stream: ReadableStream<AiSdkStreamPart>, signal: AbortSignal) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.type === 'stream-start') continue;
        if (value.type === 'error') throw classifyAiSdkError(value.error, this.provider, signal);
        yield value;
      }
    } finally {
      // Cancelling stops the provider's read of the HTTP body (a consumer that stopped early).
      await reader.cancel().catch(() => undefined);
    }
  }

  /**
   * Refuses parts the model cannot take before anything is sent (`UNSUPPORTED_CONTENT`), and
   * downloads the URLs the model does not fetch itself, once for all attempts.
   */
  private async callOptions(
    request: ModelRequest,
    signal: AbortSignal | undefined,
  ): Promise<AiSdkCallOptions> {
    assertSupportedParts(request.messages, {
      provider: this.provider,
      modelId: this.modelId,
      mediaTypes: this.capabilities.inputMediaTypes ?? [],
    });
    const supportedUrls = (await this.model.supportedUrls) ?? {};
    const messages = await downloadUnsupportedUrls(request.messages, supportedUrls, { signal });
    return buildAiSdkCallOptions(
      { ...request, messages },
      {
        version: this.version,
        provider: this.provider,
        providerOptions: this.options.providerOptions,
        signal,
      },
    );
  }

  private retryOptions(signal: AbortSignal | undefined) {
    return { maxRetries: this.maxRetries, provider: this.provider, ...(signal ? { signal } : {}) };
  }
}
