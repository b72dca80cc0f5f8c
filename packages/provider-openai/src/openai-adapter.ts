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
  classifyError,
  createModelStream,
  createResultAssembler,
  resolveModelAdapterOptions,
  retryStream,
  withRetry,
} from '@cairn/provider-utils';
import type OpenAI from 'openai';
import type { OpenAIAdapterOptions, OpenAIMaxTokensParameter } from './openai-adapter-options.js';
import { callOptions, createOpenAIClient } from './openai-client.js';
import { resolveOpenAIInputMediaTypes } from './openai-input-media-types.js';
import { buildOpenAIRequestBody, type OpenAIRequestBody } from './openai-request-body.js';
import { parseOpenAIChunks } from './parse-openai-chunks.js';
import { readOpenAIChunks } from './read-openai-chunks.js';
import { readOpenAIResponse } from './read-openai-response.js';

const PROVIDER = 'openai';
// The SDK's own default, when neither the option nor OPENAI_BASE_URL names another.
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * A `ModelAdapter` for the Chat Completions API of OpenAI or of any OpenAI-compatible server
 * (Ollama, vLLM, llama.cpp) on the official `openai` SDK. The API key is read when the first
 * request is made: without `apiKey` or `OPENAI_API_KEY` that request fails with `LLM_AUTH` (a local
 * server that needs none takes any string).
 */
export function createOpenAIAdapter(options: OpenAIAdapterOptions): ModelAdapter {
  return new OpenAIAdapter(options);
}

class OpenAIAdapter implements ModelAdapter {
  readonly provider = PROVIDER;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  private readonly options: OpenAIAdapterOptions;
  private readonly maxRetries: number;
  private readonly maxTokensParameter: OpenAIMaxTokensParameter;
  private sdkClient: OpenAI | undefined;

  constructor(options: OpenAIAdapterOptions) {
    this.options = options;
    this.modelId = options.model;
    this.maxRetries = resolveModelAdapterOptions(PROVIDER, options).maxRetries;
    const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL;
    this.maxTokensParameter = options.maxTokensParameter ?? defaultMaxTokensParameter(baseURL);
    this.capabilities = {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      // Chat Completions returns no reasoning text; compatible servers' `reasoning_content` is read.
      reasoning: false,
      inputMediaTypes: resolveOpenAIInputMediaTypes(options.model, options.inputMediaTypes),
      structuredOutput: true,
    };
  }

  /** Created by the first request: the SDK refuses to exist without a key, which only a call needs. */
  private get client(): OpenAI {
    this.sdkClient ??= createOpenAIClient(this.options);
    return this.sdkClient;
  }

  async generate(request: ModelRequest): Promise<ModelResult> {
    const { signal } = request;
    try {
      const body = this.body(request);
      const { client } = this;
      const response = await withRetry(
        () => client.chat.completions.create({ ...body, stream: false }, callOptions(request, signal)),
        this.retryOptions(signal),
      );
      const assembler = createResultAssembler();
      readOpenAIResponse(response, assembler);
      return assembler.complete();
    } catch (error) {
      throw classifyError(error, { provider: PROVIDER, ...(signal ? { signal } : {}) });
    }
  }

  stream(request: ModelRequest): ModelStream {
    return createModelStream(
      async (sink, signal) => {
        const body = this.body(request);
        const { client } = this;
        const chunks = retryStream(async () => {
          const response = await client.chat.completions
            .create(
              { ...body, stream: true, stream_options: { include_usage: true } },
              callOptions(request, signal),
            )
            .asResponse();
          return parseOpenAIChunks(response);
        }, this.retryOptions(signal));
        await readOpenAIChunks(chunks, sink);
      },
      { provider: PROVIDER, ...(request.signal ? { signal: request.signal } : {}) },
    );
  }

  /** Refuses parts the model cannot take before anything is sent (`UNSUPPORTED_CONTENT`). */
  private body(request: ModelRequest): OpenAIRequestBody {
    assertSupportedParts(request.messages, {
      provider: PROVIDER,
      modelId: this.modelId,
      mediaTypes: this.capabilities.inputMediaTypes ?? [],
    });
    return buildOpenAIRequestBody(request, this.modelId, this.maxTokensParameter);
  }

  private retryOptions(signal: AbortSignal | undefined) {
    return { maxRetries: this.maxRetries, provider: PROVIDER, ...(signal ? { signal } : {}) };
  }
}

/** OpenAI's reasoning models refuse `max_tokens`; compatible servers may not know its successor. */
function defaultMaxTokensParameter(baseURL: string): OpenAIMaxTokensParameter {
  if (!URL.canParse(baseURL)) {
    throw new CairnError('INVALID_ARGUMENT', `openai: baseURL ${JSON.stringify(baseURL)} is not a URL`, {
      details: { provider: PROVIDER, path: 'baseURL' },
    });
  }
  return new URL(baseURL).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
}
