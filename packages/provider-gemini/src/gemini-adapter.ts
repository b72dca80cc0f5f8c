import {
  type CairnError,
  definedFields,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResult,
  type ModelStream,
} from '@cairn/core';
import {
  createAttemptSignal,
  createModelStream,
  createResultAssembler,
  type RetryOptions,
  requireApiKey,
  resolveModelAdapterOptions,
  retryStream,
  withRetry,
} from '@cairn/provider-utils';
import {
  type GenerateContentRequest,
  type GenerativeModel,
  GoogleGenerativeAI,
  type ModelParams,
  type SingleRequestOptions,
} from '@google/generative-ai';
import { classifyGeminiError } from './classify-gemini-error.js';
import type { GeminiAdapterOptions } from './gemini-adapter-options.js';
import type { GeminiResponse } from './gemini-api-types.js';
import { GEMINI_INPUT_MEDIA_TYPES } from './gemini-input-media.js';
import { GeminiResponseReader } from './gemini-response-reader.js';
import { type GeminiRequest, prepareGeminiRequest } from './prepare-gemini-request.js';

const PROVIDER = 'gemini';
const API_KEY_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'];

/**
 * A `ModelAdapter` for the Gemini API on the official `@google/generative-ai` SDK: `generate` calls
 * `generateContent`, `stream` calls `streamGenerateContent` (SSE). The SDK never retries; retries
 * are `withRetry`/`retryStream`, which honour Gemini's `RetryInfo` delay and never replay a stream
 * that already produced output. The API key (`apiKey`, else `GEMINI_API_KEY` or `GOOGLE_API_KEY`) is
 * read by the first request: created without one, the adapter's calls fail with `LLM_AUTH`.
 */
export function createGeminiAdapter(options: GeminiAdapterOptions): ModelAdapter {
  return new GeminiAdapter(options);
}

/** One attempt's request options and how to classify what it throws. */
interface Attempt {
  requestOptions: SingleRequestOptions;
  classify(error: unknown): CairnError;
}

class GeminiAdapter implements ModelAdapter {
  readonly provider = PROVIDER;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities = {
    streaming: true,
    toolCalls: true,
    parallelToolCalls: true,
    reasoning: true,
    inputMediaTypes: GEMINI_INPUT_MEDIA_TYPES,
    structuredOutput: true,
  };
  private sdkClient: GoogleGenerativeAI | undefined;

  private readonly options: GeminiAdapterOptions & { maxRetries: number };

  constructor(options: GeminiAdapterOptions) {
    this.options = resolveModelAdapterOptions(PROVIDER, options);
    this.modelId = options.model;
  }

  /** Created by the first request, the one thing that needs the key. */
  private get client(): GoogleGenerativeAI {
    this.sdkClient ??= new GoogleGenerativeAI(requireApiKey(PROVIDER, this.options.apiKey, API_KEY_ENV));
    return this.sdkClient;
  }

  async generate(request: ModelRequest): Promise<ModelResult> {
    const body = prepareGeminiRequest(request, this.modelId);
    const model = this.model(body);
    const response = await withRetry(async () => {
      const attempt = this.attempt(request);
      try {
        const result = await model.generateContent(contentsOf(body), attempt.requestOptions);
        return result.response as unknown as GeminiResponse;
      } catch (error) {
        throw attempt.classify(error);
      }
    }, this.retryOptions(request.signal));
    const assembler = createResultAssembler();
    const reader = new GeminiResponseReader(assembler, request.messages.length);
    reader.read(response);
    reader.end();
    return assembler.complete();
  }

  stream(request: ModelRequest): ModelStream {
    return createModelStream(
      async (sink, signal) => {
        const body = prepareGeminiRequest(request, this.modelId);
        const model = this.model(body);
        const chunks = retryStream(async () => {
          const attempt = this.attempt(request, signal);
          try {
            const { stream, response } = await model.generateContentStream(
              contentsOf(body),
              attempt.requestOptions,
            );
            // The SDK also aggregates the chunks into `response`; unused, and its failure is the stream's.
            response.catch(() => undefined);
            return classifyFailures(stream, attempt.classify);
          } catch (error) {
            throw attempt.classify(error);
          }
        }, this.retryOptions(signal));
        const reader = new GeminiResponseReader(sink, request.messages.length);
        for await (const chunk of chunks) reader.read(chunk as unknown as GeminiResponse);
        reader.end();
      },
      { provider: PROVIDER, ...definedFields({ signal: request.signal }) },
    );
  }

  // The request-specific body goes into the model's parameters, as the SDK intends; cast because
  // the SDK's types predate thought parts and thinking options (the JSON is sent as is).
  private model({ contents: _contents, ...params }: GeminiRequest): GenerativeModel {
    const { baseURL, apiVersion } = this.options;
    return this.client.getGenerativeModel({ model: this.modelId, ...params } as unknown as ModelParams, {
      ...(baseURL === undefined ? {} : { baseUrl: baseURL.replace(/\/+$/, '') }),
      ...definedFields({ apiVersion }),
    });
  }

  /**
   * The SDK's own `timeout` starts a timer it never clears (it keeps Node alive until it fires),
   * so the time limit is part of the attempt's own signal instead.
   */
  private attempt(request: ModelRequest, signal = request.signal): Attempt {
    const attempt = createAttemptSignal(signal, this.options.timeoutMs);
    const headers = { ...this.options.headers, ...request.headers };
    return {
      requestOptions: {
        ...definedFields({ signal: attempt.signal }),
        ...(Object.keys(headers).length === 0 ? {} : { customHeaders: headers }),
      },
      classify: (error) =>
        classifyGeminiError(error, {
          ...definedFields({ signal }),
          timedOut: attempt.timedOut(),
        }),
    };
  }

  private retryOptions(signal: AbortSignal | undefined): RetryOptions {
    return {
      maxRetries: this.options.maxRetries,
      provider: PROVIDER,
      ...definedFields({ signal }),
    };
  }
}

function contentsOf(body: GeminiRequest): GenerateContentRequest {
  return { contents: body.contents } as unknown as GenerateContentRequest;
}

/** The SDK's chunks, with whatever reading them throws classified for this attempt. */
async function* classifyFailures<T>(
  chunks: AsyncIterable<T>,
  classify: (error: unknown) => CairnError,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* chunks;
  } catch (error) {
    throw classify(error);
  }
}
