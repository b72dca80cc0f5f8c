import { CairnError, type ModelAdapter } from '@cairn/core';
import { createModelAdapter, resolveModelAdapterOptions } from '@cairn/provider-utils';
import type { OpenAIAdapterOptions, OpenAIMaxTokensParameter } from './openai-adapter-options.js';
import { assertOpenAIParts, callOptions, lazyOpenAIClient } from './openai-client.js';
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
  const { maxRetries } = resolveModelAdapterOptions(PROVIDER, options);
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL;
  const maxTokensParameter = options.maxTokensParameter ?? defaultMaxTokensParameter(baseURL);
  const client = lazyOpenAIClient(options);
  const inputMediaTypes = resolveOpenAIInputMediaTypes(options.model, options.inputMediaTypes);
  return createModelAdapter({
    provider: PROVIDER,
    modelId: options.model,
    capabilities: {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      // Chat Completions returns no reasoning text; compatible servers' `reasoning_content` is read.
      reasoning: false,
      inputMediaTypes,
      structuredOutput: true,
    },
    maxRetries,
    prepare: (request): OpenAIRequestBody => {
      assertOpenAIParts(request, options.model, inputMediaTypes);
      return buildOpenAIRequestBody(request, options.model, maxTokensParameter);
    },
    send: (body, request) =>
      client().chat.completions.create({ ...body, stream: false }, callOptions(request, request.signal)),
    readResponse: (response, assembler) => readOpenAIResponse(response, assembler),
    open: async (body, request, signal) => {
      const response = await client()
        .chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          callOptions(request, signal),
        )
        .asResponse();
      return parseOpenAIChunks(response);
    },
    readEvents: (chunks, sink) => readOpenAIChunks(chunks, sink),
  });
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
