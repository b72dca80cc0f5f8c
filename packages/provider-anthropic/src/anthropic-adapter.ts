import Anthropic from '@anthropic-ai/sdk';
import { Stream } from '@anthropic-ai/sdk/core/streaming';
import { definedFields, type ModelAdapter, type ModelRequest } from '@cairn/core';
import { createModelAdapter } from '@cairn/provider-utils';
import { type AnthropicAdapterOptions, resolveAnthropicAdapterOptions } from './anthropic-adapter-options.js';
import { rethrowAuthError } from './anthropic-auth-error.js';
import { buildAnthropicRequest, structuredOutputTool } from './build-anthropic-request.js';
import { readAnthropicMessage } from './read-anthropic-message.js';
import { readAnthropicStream, throwErrorEvents } from './read-anthropic-stream.js';
import { ANTHROPIC_INPUT_MEDIA_TYPES } from './to-anthropic-content-blocks.js';

const PROVIDER = 'anthropic';
const SDK_DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * A `ModelAdapter` for the Anthropic Messages API on the official `@anthropic-ai/sdk`. The SDK's
 * own retries are off: Cairn's `withRetry` / `retryStream` retry instead, honouring
 * `retry-after` and never replaying a stream that already produced output. Credentials are looked
 * for when a request is made: without `apiKey`, `ANTHROPIC_API_KEY` or another credential the SDK
 * finds, creating the adapter works and each call fails with `LLM_AUTH`.
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions): ModelAdapter {
  const resolved = resolveAnthropicAdapterOptions(options);
  const client = new Anthropic({
    maxRetries: 0,
    ...definedFields({
      apiKey: resolved.apiKey,
      baseURL: resolved.baseURL,
      timeout: resolved.timeoutMs,
      defaultHeaders: resolved.headers,
    }),
  });
  const requestOptions = (request: ModelRequest, signal: AbortSignal | undefined) => ({
    ...definedFields({ signal, headers: request.headers }),
  });

  return createModelAdapter({
    provider: PROVIDER,
    modelId: resolved.model,
    capabilities: {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      reasoning: true,
      inputMediaTypes: ANTHROPIC_INPUT_MEDIA_TYPES,
      structuredOutput: true,
    },
    maxRetries: resolved.maxRetries,
    prepare: (request) => buildAnthropicRequest(request, resolved),
    send: (body, request) =>
      client.messages
        // An explicit timeout: without one the SDK refuses, before sending anything, a
        // non-streaming call whose max_tokens it expects to take over ten minutes.
        .create(body, {
          ...requestOptions(request, request.signal),
          timeout: resolved.timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS,
        })
        .catch(rethrowAuthError),
    readResponse: (message, assembler, request) =>
      readAnthropicMessage(message, assembler, structuredOutputTool(request, resolved)),
    // The SDK's raw events rather than its parsed stream: a malformed event must reach the caller
    // with its text, which the parsed stream only logs.
    open: async (body, request, signal) => {
      const response = await client.messages
        .create({ ...body, stream: true }, requestOptions(request, signal))
        .asResponse()
        .catch(rethrowAuthError);
      return throwErrorEvents(Stream.rawEvents(response));
    },
    readEvents: (events, sink, request) =>
      readAnthropicStream(events, sink, structuredOutputTool(request, resolved)),
  });
}
