import {
  CairnError,
  type FinishReason,
  type ModelAdapter,
  type ModelMessage,
  type ModelRequest,
  type TokenUsage,
  toOpenAIChatMessage,
} from '@cairn/core';
import {
  classifyError,
  createModelStream,
  createResultAssembler,
  type RetryOptions,
  retryStream,
  type StreamSink,
  withRetry,
} from '@cairn/provider-utils';
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';

// The smallest OpenAI adapter that should pass the conformance kit: it exists only to test the
// kit (the real one is @cairn/provider-openai). Reasoning comes from the `reasoning_content`
// field OpenAI-compatible servers add, which the SDK passes through untyped.

const provider = 'openai';

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

function toWire(message: ModelMessage, index: number): ChatCompletionMessageParam {
  return toOpenAIChatMessage(message, `message ${index}`) as ChatCompletionMessageParam;
}

function toUsage(usage: CompletionUsage): TokenUsage {
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

const finish = (sink: StreamSink, raw: string) => sink.finish(FINISH_REASONS[raw] ?? 'other', raw);

/**
 * The SDK throws a bare SyntaxError for an SSE event that is not JSON; the offending text only
 * reaches its logger (`Could not parse message into JSON:`, data). Capture it for the error.
 */
function captureUnparsedData(client: OpenAI): { client: OpenAI; unparsed: () => string | undefined } {
  let data: string | undefined;
  const quiet = () => undefined;
  const logger = {
    error: (message: unknown, value: unknown) => {
      if (typeof message === 'string' && message.startsWith('Could not parse') && typeof value === 'string') {
        data = value;
      }
    },
    warn: quiet,
    info: quiet,
    debug: quiet,
  };
  return { client: client.withOptions({ logger }), unparsed: () => data };
}

/** Reports one streamed chat completion to `sink`, retrying only until the first chunk. */
async function readChatStream(
  client: OpenAI,
  params: ChatCompletionCreateParamsNonStreaming,
  headers: Record<string, string>,
  retryOptions: RetryOptions,
  sink: StreamSink,
): Promise<void> {
  const chunks = retryStream(
    () =>
      client.chat.completions.create(
        { ...params, stream: true, stream_options: { include_usage: true } },
        { headers, ...(retryOptions.signal ? { signal: retryOptions.signal } : {}) },
      ),
    retryOptions,
  );
  const idsByIndex = new Map<number, string>();
  for await (const chunk of chunks) {
    sink.start({ responseId: chunk.id, modelId: chunk.model });
    if (chunk.usage) sink.usage(toUsage(chunk.usage));
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const delta = choice.delta as typeof choice.delta & { reasoning_content?: string };
    if (delta.reasoning_content) sink.reasoningDelta('0', delta.reasoning_content);
    if (delta.content) sink.textDelta('0', delta.content);
    for (const call of delta.tool_calls ?? []) {
      if (call.id && call.function?.name) {
        idsByIndex.set(call.index, call.id);
        sink.toolCallStart(call.id, call.function.name);
      }
      const id = idsByIndex.get(call.index);
      if (id && call.function?.arguments) sink.toolInputDelta(id, call.function.arguments);
    }
    if (choice.finish_reason) {
      for (const id of idsByIndex.values()) sink.toolCallEnd(id);
      finish(sink, choice.finish_reason);
    }
  }
}

/** Deliberate bugs, for the kit's own test that broken adapters fail it. */
export interface MinimalAdapterBugs {
  /** Keep the abort signal from the SDK call: the stream still settles, the HTTP request runs on. */
  sdkIgnoresAbort?: boolean;
}

export function createMinimalOpenAIAdapter(
  settings: {
    baseURL: string;
    apiKey: string;
    maxRetries: number;
  },
  bugs: MinimalAdapterBugs = {},
): ModelAdapter {
  const client = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: 0 });
  const body = (request: ModelRequest): ChatCompletionCreateParamsNonStreaming => ({
    model: 'gpt-test',
    messages: request.messages.map(toWire),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
          })),
        }
      : {}),
  });
  const retry = (signal?: AbortSignal): RetryOptions => ({
    maxRetries: settings.maxRetries,
    provider,
    ...(signal ? { signal } : {}),
  });

  return {
    provider,
    modelId: 'gpt-test',
    capabilities: { streaming: true, toolCalls: true, parallelToolCalls: true, reasoning: true },

    async generate(request) {
      const options = {
        ...(request.signal ? { signal: request.signal } : {}),
        headers: request.headers ?? {},
      };
      const completion = await withRetry(
        () => client.chat.completions.create(body(request), options),
        retry(request.signal),
      ).catch((error: unknown) => {
        throw classifyError(error, { provider, ...(request.signal ? { signal: request.signal } : {}) });
      });
      const sink = createResultAssembler();
      sink.start({ responseId: completion.id, modelId: completion.model });
      const choice = completion.choices[0];
      const message = choice?.message as
        | (OpenAI.ChatCompletionMessage & { reasoning_content?: string })
        | undefined;
      if (message?.reasoning_content) sink.reasoningDelta('0', message.reasoning_content);
      if (message?.content) sink.textDelta('0', message.content);
      for (const call of message?.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        sink.toolCallStart(call.id, call.function.name);
        sink.toolCallEnd(call.id, { arguments: call.function.arguments });
      }
      if (completion.usage) sink.usage(toUsage(completion.usage));
      if (choice?.finish_reason) finish(sink, choice.finish_reason);
      return sink.complete();
    },

    stream(request) {
      return createModelStream(
        async (sink, signal) => {
          const capture = captureUnparsedData(client);
          try {
            const sdkSignal = bugs.sdkIgnoresAbort ? undefined : signal;
            await readChatStream(
              capture.client,
              body(request),
              request.headers ?? {},
              retry(sdkSignal),
              sink,
            );
          } catch (error) {
            const raw = capture.unparsed();
            if (raw === undefined) throw error;
            throw new CairnError('LLM_BAD_RESPONSE', `${provider}: a stream event is not JSON`, {
              cause: error,
              details: { provider, raw },
            });
          }
        },
        { provider, ...(request.signal ? { signal: request.signal } : {}) },
      );
    },
  };
}
