import type { TokenUsage } from '@cairn/core';
import { isRecord } from '../is-record.js';
import { chunkString } from '../resolve-script-turn.js';
import type {
  MockAnswerContext,
  MockErrorInput,
  MockProviderProtocol,
  MockStreamFrame,
} from './mock-provider-protocol.js';
import { openAIRequestProblem } from './openai-request-rules.js';

// Chat Completions as api.openai.com answers it (the SDK's baseURL ends in `/v1`).

const CONTEXT_OVERFLOW_MESSAGE =
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.";

const ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: {
    message:
      'Incorrect API key provided: sk-mock. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  403: {
    message: 'Country, region, or territory not supported',
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
  },
  404: {
    message: 'The model does not exist or you do not have access to it.',
    type: 'invalid_request_error',
    code: 'model_not_found',
  },
  429: {
    message:
      'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: {
    message: 'The engine is currently overloaded, please try again later',
    type: 'server_error',
    code: null,
  },
};

function openAIUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const responseId = (context: MockAnswerContext) => `chatcmpl-mock${context.requestIndex}`;
const created = () => Math.floor(Date.now() / 1000);

function includeUsage(body: unknown): boolean {
  return isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

export const openAIMockProtocol: MockProviderProtocol = {
  provider: 'openai',
  baseUrlPath: '/v1',
  rawFinishReasons: {
    stop: 'stop',
    tool_calls: 'tool_calls',
    length: 'length',
    content_filter: 'content_filter',
  },

  route(method, path, _query, body) {
    if (method !== 'POST' || path !== '/v1/chat/completions') return undefined;
    const record = isRecord(body) ? body : {};
    return { stream: record.stream === true, model: String(record.model ?? 'mock-model') };
  },

  toolCallId: (requestIndex, callIndex) => `call_mock${requestIndex}_${callIndex}`,

  response(context) {
    const { turn } = context;
    const message: Record<string, unknown> = { role: 'assistant', content: turn.text ?? null, refusal: null };
    // OpenAI-compatible servers (DeepSeek, vLLM) put reasoning here; api.openai.com never does.
    if (turn.reasoning) message.reasoning_content = turn.reasoning;
    if (turn.toolCalls.length > 0) {
      message.tool_calls = turn.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
    }
    return {
      id: responseId(context),
      object: 'chat.completion',
      created: created(),
      model: context.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: turn.finish }],
      usage: openAIUsage(turn.usage),
      system_fingerprint: 'fp_mock',
    };
  },

  streamFrames(context) {
    const { turn } = context;
    const withUsage = includeUsage(context.body);
    const base = {
      id: responseId(context),
      object: 'chat.completion.chunk',
      created: created(),
      model: context.model,
      system_fingerprint: 'fp_mock',
      // With include_usage every chunk carries `usage: null` until the extra usage chunk.
      ...(withUsage ? { usage: null } : {}),
    };
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): MockStreamFrame => ({
      data: JSON.stringify({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      }),
    });
    const frames: MockStreamFrame[] = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const piece of chunkString(turn.reasoning ?? '', turn.chunkSize)) {
      frames.push(chunk({ reasoning_content: piece }));
    }
    for (const piece of chunkString(turn.text ?? '', turn.chunkSize)) frames.push(chunk({ content: piece }));
    turn.toolCalls.forEach((call, index) => {
      frames.push(
        chunk({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of chunkString(call.arguments, turn.chunkSize)) {
        frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    frames.push(chunk({}, turn.finish));
    if (withUsage) {
      frames.push({ data: JSON.stringify({ ...base, choices: [], usage: openAIUsage(turn.usage) }) });
    }
    frames.push({ data: '[DONE]' });
    return frames;
  },

  requestProblem: openAIRequestProblem,

  errorBody({ status, message, contextOverflow }: MockErrorInput) {
    if (contextOverflow) {
      return {
        error: {
          message: message ?? CONTEXT_OVERFLOW_MESSAGE,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      };
    }
    const known = ERRORS[status] ?? {
      message: `Request failed with status ${status}.`,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: null,
    };
    return { error: { message: message ?? known.message, type: known.type, param: null, code: known.code } };
  },

  responseHeaders: (requestIndex) => ({ 'x-request-id': `req_mock${requestIndex}` }),
};
