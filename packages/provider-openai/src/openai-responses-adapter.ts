import type { ModelAdapter } from '@cairn/core';
import { createModelAdapter, resolveModelAdapterOptions } from '@cairn/provider-utils';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { assertOpenAIParts, callOptions, lazyOpenAIClient } from './openai-client.js';
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
  const { maxRetries } = resolveModelAdapterOptions(PROVIDER, options);
  const reasoning = options.reasoning ?? isOpenAIReasoningModel(options.model);
  const client = lazyOpenAIClient(options);
  const inputMediaTypes = resolveOpenAIInputMediaTypes(options.model, options.inputMediaTypes);
  return createModelAdapter({
    provider: PROVIDER,
    modelId: options.model,
    capabilities: {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      reasoning,
      inputMediaTypes,
      structuredOutput: true,
    },
    maxRetries,
    prepare: (request): OpenAIResponsesRequestBody => {
      assertOpenAIParts(request, options.model, inputMediaTypes);
      return buildOpenAIResponsesRequestBody(request, {
        model: options.model,
        reasoning,
        store: options.store ?? false,
      });
    },
    send: (body, request) =>
      client().responses.create({ ...body, stream: false }, callOptions(request, request.signal)),
    readResponse: (response, assembler) => readOpenAIResponsesResponse(response, assembler),
    open: async (body, request, signal) => {
      const response = await client()
        .responses.create({ ...body, stream: true }, callOptions(request, signal))
        .asResponse();
      return parseOpenAIChunks<ResponseStreamEvent>(response);
    },
    readEvents: (events, sink) => readOpenAIResponsesEvents(events, sink),
  });
}
