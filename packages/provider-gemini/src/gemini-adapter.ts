import { CairnError, definedFields, type ModelAdapter, type ModelRequest } from '@cairn/core';
import {
  createAttemptSignal,
  createModelAdapter,
  requireApiKey,
  resolveModelAdapterOptions,
} from '@cairn/provider-utils';
import {
  type GenerateContentConfig,
  type GenerateContentParameters,
  GoogleGenAI,
  type GoogleGenAIOptions,
} from '@google/genai';
import { classifyGeminiError } from './classify-gemini-error.js';
import type { GeminiAdapterOptions } from './gemini-adapter-options.js';
import type { GeminiResponse } from './gemini-api-types.js';
import { GEMINI_INPUT_MEDIA_TYPES } from './gemini-input-media.js';
import { GeminiResponseReader } from './gemini-response-reader.js';
import { createGeminiStreamTail } from './gemini-stream-tail.js';
import { type GeminiRequest, prepareGeminiRequest } from './prepare-gemini-request.js';

const PROVIDER = 'gemini';
const API_KEY_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'];

/**
 * A `ModelAdapter` for the Gemini API or Vertex AI on Google's `@google/genai` SDK: `generate` calls
 * `generateContent`, `stream` calls `streamGenerateContent` (SSE). The SDK's own retries and
 * stream continuation stay off; retries are `withRetry`/`retryStream`, which honour Gemini's
 * `RetryInfo` delay and never replay a stream that already produced output. On the Gemini API the
 * key (`apiKey`, else `GEMINI_API_KEY` or `GOOGLE_API_KEY`) is read by the first request: created
 * without one, the adapter's calls fail with `LLM_AUTH`. On Vertex AI (`vertexai`) a `project`
 * means Application Default Credentials, otherwise the key (express mode).
 */
export function createGeminiAdapter(options: GeminiAdapterOptions): ModelAdapter {
  const resolved = resolveModelAdapterOptions(PROVIDER, options);
  assertBackendOptions(options);
  const calls = new GeminiCalls(resolved);
  return createModelAdapter({
    provider: PROVIDER,
    modelId: options.model,
    capabilities: {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      reasoning: true,
      inputMediaTypes: GEMINI_INPUT_MEDIA_TYPES,
      structuredOutput: true,
    },
    maxRetries: resolved.maxRetries,
    prepare: (request) => prepareGeminiRequest(request, options.model),
    send: (body, request) => calls.send(body, request),
    readResponse: (response, assembler, request) => {
      const reader = new GeminiResponseReader(assembler, request.messages.length);
      reader.read(response);
      reader.end();
    },
    open: (body, request, signal) => calls.open(body, request, signal),
    readEvents: async (chunks, sink, request) => {
      const reader = new GeminiResponseReader(sink, request.messages.length);
      for await (const chunk of chunks) reader.read(chunk);
      reader.end();
    },
  });
}

/** One attempt's request options and how to classify what it throws. */
interface Attempt {
  config: Pick<GenerateContentConfig, 'abortSignal' | 'httpOptions'>;
  classify(error: unknown): CairnError;
}

/** One attempt of each call on the SDK, each failure classified for the attempt that made it. */
class GeminiCalls {
  private sdkClient: GoogleGenAI | undefined;

  constructor(private readonly options: GeminiAdapterOptions) {}

  async send(body: GeminiRequest, request: ModelRequest): Promise<GeminiResponse> {
    const attempt = this.attempt(request);
    try {
      const result = await this.client.models.generateContent(this.parameters(body, attempt));
      return result as unknown as GeminiResponse;
    } catch (error) {
      throw attempt.classify(error);
    }
  }

  async open(
    body: GeminiRequest,
    request: ModelRequest,
    signal: AbortSignal,
  ): Promise<AsyncIterable<GeminiResponse>> {
    const attempt = this.attempt(request, signal, true);
    try {
      const stream = await this.client.models.generateContentStream(this.parameters(body, attempt));
      return classifyFailures(
        stream as AsyncIterable<unknown> as AsyncIterable<GeminiResponse>,
        attempt.classify,
      );
    } catch (error) {
      throw attempt.classify(error);
    }
  }

  /** Created by the first request, the one thing that needs the key. */
  private get client(): GoogleGenAI {
    this.sdkClient ??= new GoogleGenAI(this.clientOptions());
    return this.sdkClient;
  }

  /**
   * Everything is passed explicitly so that the SDK's own environment lookups
   * (`GOOGLE_GENAI_USE_VERTEXAI`) cannot switch the backend behind the options' back.
   */
  private clientOptions(): GoogleGenAIOptions {
    const { vertexai = false, project, location, googleAuthOptions, baseURL, apiVersion } = this.options;
    // Vertex AI with a project authenticates with Google credentials; without one, with a key.
    const usesKey =
      !vertexai || (project === undefined && location === undefined && googleAuthOptions === undefined);
    const apiKey = usesKey ? requireApiKey(PROVIDER, this.options.apiKey, API_KEY_ENV) : this.options.apiKey;
    return {
      vertexai,
      ...definedFields({ apiKey, project, location, googleAuthOptions }),
      apiVersion: apiVersion ?? (vertexai ? 'v1beta1' : 'v1beta'),
      httpOptions: definedFields({ baseUrl: baseURL?.replace(/\/+$/, '') }),
    };
  }

  /**
   * The SDK's parameters for one attempt. The body is copied, as the SDK rewrites tool schemas in
   * place. Its automatic function calling and stream continuation are off: the loop runs tools,
   * and a stream that stops early is this adapter's to report (given a `continuationToken`, the SDK
   * would re-request it behind the caller's back, the usage of both requests summed).
   */
  private parameters(
    { contents, generationConfig, ...request }: GeminiRequest,
    attempt: Attempt,
  ): GenerateContentParameters {
    // The SDK's config holds the generation settings and the request's other fields side by side.
    const sdkConfig: GenerateContentConfig & { automaticContinuation: boolean } = {
      ...(structuredClone({ ...request, ...generationConfig }) as GenerateContentConfig),
      ...attempt.config,
      automaticFunctionCalling: { disable: true },
      automaticContinuation: false,
    };
    return {
      model: this.options.model,
      contents: contents as GenerateContentParameters['contents'],
      config: sdkConfig,
    };
  }

  /**
   * The time limit is part of the attempt's own signal rather than the SDK's `timeout`, so that a
   * timeout is told apart from the caller's abort. A streamed attempt reads its events on their way
   * to the SDK, so that a malformed one is reported whole.
   */
  private attempt(request: ModelRequest, signal = request.signal, streamed = false): Attempt {
    const attempt = createAttemptSignal(signal, this.options.timeoutMs);
    const headers = { ...this.options.headers, ...request.headers };
    const tail = streamed ? createGeminiStreamTail() : undefined;
    const httpOptions = {
      ...(Object.keys(headers).length === 0 ? {} : { headers }),
      ...(tail === undefined ? {} : { fetch: tail.fetch }),
    };
    return {
      config: {
        ...definedFields({ abortSignal: attempt.signal }),
        ...(Object.keys(httpOptions).length === 0 ? {} : { httpOptions }),
      },
      classify: (error) =>
        classifyGeminiError(error, {
          ...definedFields({ signal, malformedData: tail?.malformedData() }),
          timedOut: attempt.timedOut(),
        }),
    };
  }
}

/**
 * The backend settings that cannot go together, refused when the adapter is created rather than
 * by the SDK on the first call: project and location are Vertex AI's, and a Vertex AI call
 * authenticates either with a key (express mode) or with Google credentials for a project.
 */
function assertBackendOptions({
  vertexai,
  project,
  location,
  googleAuthOptions,
  apiKey,
}: GeminiAdapterOptions): void {
  const vertexOnly = { project, location, googleAuthOptions };
  const given = Object.keys(definedFields(vertexOnly));
  if (vertexai !== true && given.length > 0) {
    throw new CairnError('INVALID_ARGUMENT', `${PROVIDER}: ${given.join(', ')} need vertexai: true`, {
      details: { provider: PROVIDER },
    });
  }
  if (vertexai === true && apiKey !== undefined && given.length > 0) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `${PROVIDER}: on Vertex AI, apiKey (express mode) and ${given.join(', ')} (Google credentials) exclude each other`,
      { details: { provider: PROVIDER } },
    );
  }
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
