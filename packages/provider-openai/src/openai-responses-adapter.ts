import {
  assertSupportedParts,
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
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { callOptions, createOpenAIClient } from './openai-client.js';
import { resolveOpenAIInputMediaTypes } from './openai-input-media-types.js';
import type { OpenAIResponsesAdapterOptions } from './openai-responses-adapter-options.js';
import {
  buildOpenAIResponsesRequestBody,
  type OpenAIResponsesRequestBody,
} from './openai-responses-request-body.js';
import { parseOpenAIChunks } from './parse-openai-chunks.js';
import { readOpenAIResponsesEvents } from './read-openai-responses-events.js';
import { readOpenAIResponsesResponse } from './read-openai-responses-response.js';

const PROVIDER = 'openai';

// GPT-5 (not the non-reasoning `gpt-5-chat`), the o-series and Codex models reason.
const REASONING_MODEL = /^(?:.*\/)?(?:gpt-5(?!(?:\.\d+)?-chat)|o\d|codex)/;

/** Whether OpenAI reasons with this model id, and so takes `reasoning` and returns reasoning items. */
export function isOpenAIReasoningModel(modelId: string): boolean {
  return REASONING_MODEL.test(modelId.toLowerCase());
}

/**
 * A `ModelAdapter` for OpenAI's Responses API (`POST /v1/responses`) on the official `openai` SDK:
 * what OpenAI recommends for new work, and the only API that returns reasoning (summaries, and
 * the encrypted reasoning a reasoning model needs back to continue well across tool calls).
 * Nothing is stored on OpenAI's side by default (`store: false`). OpenAI-compatible servers speak
 * Chat Completions: use `createOpenAIAdapter` for them.
 */
export function createOpenAIResponsesAdapter(options: OpenAIResponsesAdapterOptions): ModelAdapter {
  return new OpenAIResponsesAdapter(options);
}

class OpenAIResponsesAdapter implements ModelAdapter {
  readonly provider = PROVIDER;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  private readonly options: OpenAIResponsesAdapterOptions;
  private readonly maxRetries: number;
  private readonly reasoning: boolean;
  private sdkClient: OpenAI | undefined;

  constructor(options: OpenAIResponsesAdapterOptions) {
    this.options = options;
    this.modelId = options.model;
    this.maxRetries = resolveModelAdapterOptions(PROVIDER, options).maxRetries;
    this.reasoning = options.reasoning ?? isOpenAIReasoningModel(options.model);
    this.capabilities = {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      reasoning: this.reasoning,
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
        () => client.responses.create({ ...body, stream: false }, callOptions(request, signal)),
        this.retryOptions(signal),
      );
      const assembler = createResultAssembler();
      readOpenAIResponsesResponse(response, assembler);
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
        const events = retryStream(async () => {
          const response = await client.responses
            .create({ ...body, stream: true }, callOptions(request, signal))
            .asResponse();
          return parseOpenAIChunks<ResponseStreamEvent>(response);
        }, this.retryOptions(signal));
        await readOpenAIResponsesEvents(events, sink);
      },
      { provider: PROVIDER, ...(request.signal ? { signal: request.signal } : {}) },
    );
  }

  /** Refuses parts the model cannot take before anything is sent (`UNSUPPORTED_CONTENT`). */
  private body(request: ModelRequest): OpenAIResponsesRequestBody {
    assertSupportedParts(request.messages, {
      provider: PROVIDER,
      modelId: this.modelId,
      mediaTypes: this.capabilities.inputMediaTypes ?? [],
    });
    return buildOpenAIResponsesRequestBody(request, {
      model: this.modelId,
      reasoning: this.reasoning,
      store: this.options.store ?? false,
    });
  }

  private retryOptions(signal: AbortSignal | undefined) {
    return { maxRetries: this.maxRetries, provider: PROVIDER, ...(signal ? { signal } : {}) };
  }
}
