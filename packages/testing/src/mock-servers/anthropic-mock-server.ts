import type { TokenUsage } from '@cairn/core';
import { isRecord } from '../is-record.js';
import { argumentsValue, chunkString, type ResolvedScriptTurn } from '../resolve-script-turn.js';
import type { ScriptFinish } from '../script-turn.js';
import { type AnthropicPromptCacheOptions, createAnthropicPromptCache } from './anthropic-prompt-cache.js';
import { anthropicRequestProblem } from './anthropic-request-rules.js';
import { anthropicThinkingSignature } from './anthropic-thinking-signature.js';
import type {
  MockAnswerContext,
  MockErrorInput,
  MockProviderProtocol,
  MockStreamFrame,
} from './mock-provider-protocol.js';

// The Messages API as api.anthropic.com answers it (the SDK's baseURL is the bare origin).

const STOP_REASONS: Record<ScriptFinish, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

const ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: {
    type: 'permission_error',
    message: 'Your API key does not have permission to use the specified resource.',
  },
  404: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: {
    type: 'rate_limit_error',
    message:
      'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
  },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

const CONTEXT_OVERFLOW_MESSAGE = 'prompt is too long: 208310 tokens > 200000 maximum';

// Anthropic's `input_tokens` excludes cache reads and writes; core's `inputTokens` includes them.
function anthropicInputUsage(usage: TokenUsage): Record<string, number> {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

const signatureOf = (context: MockAnswerContext) => anthropicThinkingSignature(context.turn.reasoning ?? '');

const messageId = (context: MockAnswerContext) => `msg_mock${context.requestIndex}`;

const event = (type: string, payload: Record<string, unknown> = {}): MockStreamFrame => ({
  event: type,
  data: JSON.stringify({ type, ...payload }),
});

/**
 * The API always answers a forced `tool_choice: { type: 'tool' }` with that tool's call: a scripted
 * text-only turn (the JSON of a structured answer) becomes the forced tool's input.
 */
function forcedToolTurn(context: MockAnswerContext): ResolvedScriptTurn {
  const { turn, body } = context;
  const choice = isRecord(body) ? body.tool_choice : undefined;
  if (!isRecord(choice) || choice.type !== 'tool' || typeof choice.name !== 'string') return turn;
  if (turn.toolCalls.length > 0 || turn.text === undefined) return turn;
  const { text, ...rest } = turn;
  const id = `toolu_mock${context.requestIndex}_0`;
  return { ...rest, toolCalls: [{ id, name: choice.name, arguments: text }], finish: 'tool_calls' };
}

/** Options of `createAnthropicMockProtocol`. */
export interface AnthropicMockOptions {
  /**
   * Simulate Anthropic's prompt cache (`true`, or its options): each answer's input usage is then
   * the request's own size, split into cache reads, cache writes and plain input by the
   * `cache_control` breakpoints it carries and what earlier requests to this protocol object
   * wrote (the script's input counts are not used). Off by default: usage is the script's.
   */
  promptCache?: boolean | AnthropicPromptCacheOptions;
}

/**
 * The Messages API as a mock protocol. Each call makes a new object, with its own prompt cache
 * when `promptCache` is set: pass it as `startMockProviderServer({ provider })`.
 */
export function createAnthropicMockProtocol(options: AnthropicMockOptions = {}): MockProviderProtocol {
  const cache =
    options.promptCache === undefined || options.promptCache === false
      ? undefined
      : createAnthropicPromptCache(options.promptCache === true ? {} : options.promptCache);
  const inputUsage = (context: MockAnswerContext): Record<string, number> =>
    cache === undefined ? anthropicInputUsage(context.turn.usage) : { ...cache.serve(context.body) };
  return anthropicProtocol(inputUsage);
}

function anthropicProtocol(
  inputUsage: (context: MockAnswerContext) => Record<string, number>,
): MockProviderProtocol {
  return {
    provider: 'anthropic',
    baseUrlPath: '',
    rawFinishReasons: STOP_REASONS,
    reasoningSignature: (turn) => anthropicThinkingSignature(turn.reasoning ?? ''),
    malformedEvent: 'content_block_delta',

    route(method, path, _query, body) {
      if (method !== 'POST' || path !== '/v1/messages') return undefined;
      const record = isRecord(body) ? body : {};
      return { stream: record.stream === true, model: String(record.model ?? 'mock-model') };
    },

    toolCallId: (requestIndex, callIndex) => `toolu_mock${requestIndex}_${callIndex}`,

    response(context) {
      const turn = forcedToolTurn(context);
      const content: Record<string, unknown>[] = [];
      if (turn.reasoning)
        content.push({ type: 'thinking', thinking: turn.reasoning, signature: signatureOf(context) });
      if (turn.text) content.push({ type: 'text', text: turn.text });
      for (const call of turn.toolCalls) {
        content.push({ type: 'tool_use', id: call.id, name: call.name, input: argumentsValue(call) });
      }
      return {
        id: messageId(context),
        type: 'message',
        role: 'assistant',
        model: context.model,
        content,
        stop_reason: STOP_REASONS[turn.finish],
        stop_sequence: null,
        usage: { ...inputUsage(context), output_tokens: turn.usage.outputTokens },
      };
    },

    streamFrames(context) {
      const turn = forcedToolTurn(context);
      const frames: MockStreamFrame[] = [
        event('message_start', {
          message: {
            id: messageId(context),
            type: 'message',
            role: 'assistant',
            model: context.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...inputUsage(context), output_tokens: 1 },
          },
        }),
        event('ping'),
      ];
      let index = 0;
      const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
        frames.push(event('content_block_start', { index, content_block: start }));
        for (const delta of deltas) frames.push(event('content_block_delta', { index, delta }));
        frames.push(event('content_block_stop', { index }));
        index += 1;
      };
      if (turn.reasoning) {
        block({ type: 'thinking', thinking: '', signature: '' }, [
          ...chunkString(turn.reasoning, turn.chunkSize).map((thinking) => ({
            type: 'thinking_delta',
            thinking,
          })),
          { type: 'signature_delta', signature: signatureOf(context) },
        ]);
      }
      if (turn.text) {
        block(
          { type: 'text', text: '' },
          chunkString(turn.text, turn.chunkSize).map((text) => ({ type: 'text_delta', text })),
        );
      }
      for (const call of turn.toolCalls) {
        // The API opens every tool_use block with an empty input_json_delta (see the fixtures).
        block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, [
          { type: 'input_json_delta', partial_json: '' },
          ...chunkString(call.arguments, turn.chunkSize).map((partial_json) => ({
            type: 'input_json_delta',
            partial_json,
          })),
        ]);
      }
      frames.push(
        event('message_delta', {
          delta: { stop_reason: STOP_REASONS[turn.finish], stop_sequence: null },
          usage: { output_tokens: turn.usage.outputTokens },
        }),
        event('message_stop'),
      );
      return frames;
    },

    requestProblem: anthropicRequestProblem,

    errorBody({ status, message, contextOverflow }: MockErrorInput) {
      const known = contextOverflow
        ? { type: 'invalid_request_error', message: CONTEXT_OVERFLOW_MESSAGE }
        : (ERRORS[status] ?? {
            type: status >= 500 ? 'api_error' : 'invalid_request_error',
            message: `Request failed with status ${status}.`,
          });
      return { type: 'error', error: { type: known.type, message: message ?? known.message } };
    },

    responseHeaders: (requestIndex) => ({ 'request-id': `req_mock${requestIndex}` }),
  };
}

/** The Messages API as `startMockProviderServer({ provider: 'anthropic' })` speaks it: usage as scripted. */
export const anthropicMockProtocol: MockProviderProtocol = createAnthropicMockProtocol();
