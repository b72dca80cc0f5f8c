// A MockProviderProtocol for the made-up JSONL Chat API (README.md): what @cairn/testing's mock
// server needs to answer like it, and what the conformance kit must know of it.
import { chunkString } from '@cairn/testing';

/** The API's stop reason for each scripted finish. */
const STOP_REASONS = { stop: 'end', tool_calls: 'call', length: 'limit', content_filter: 'blocked' };

const ERROR_TYPES = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  429: 'rate_limited',
  500: 'internal',
  503: 'overloaded',
};

const usageOf = (usage) => ({
  in: usage.inputTokens,
  out: usage.outputTokens,
  cached: usage.cacheReadTokens ?? 0,
});
const callsOf = (turn) =>
  turn.toolCalls.map((call) => ({ id: call.id, name: call.name, args: JSON.parse(call.arguments) }));
const line = (value) => ({ data: JSON.stringify(value) });

export const jsonlChatMockProtocol = {
  provider: 'jsonl-chat',
  baseUrlPath: '/v1',
  rawFinishReasons: STOP_REASONS,

  route(method, path, _query, body) {
    if (method !== 'POST' || path !== '/v1/chat') return undefined;
    return { stream: body?.stream === true, framing: 'ndjson', model: String(body?.model ?? 'jsonl-mock') };
  },

  toolCallId: (requestIndex, callIndex) => `jc_${requestIndex}_${callIndex}`,

  response({ turn, model, requestIndex }) {
    return {
      id: `chat_${requestIndex}`,
      model,
      thinking: turn.reasoning ?? null,
      text: turn.text ?? null,
      calls: callsOf(turn),
      stop: STOP_REASONS[turn.finish],
      usage: usageOf(turn.usage),
    };
  },

  streamFrames({ turn, model, requestIndex }) {
    const frames = [line({ type: 'begin', id: `chat_${requestIndex}`, model })];
    for (const delta of chunkString(turn.reasoning ?? '', turn.chunkSize))
      frames.push(line({ type: 'thinking', delta }));
    for (const delta of chunkString(turn.text ?? '', turn.chunkSize))
      frames.push(line({ type: 'text', delta }));
    for (const call of turn.toolCalls) {
      frames.push(line({ type: 'call', id: call.id, name: call.name }));
      for (const delta of chunkString(call.arguments, turn.chunkSize))
        frames.push(line({ type: 'args', id: call.id, delta }));
    }
    frames.push(line({ type: 'stop', reason: STOP_REASONS[turn.finish], usage: usageOf(turn.usage) }));
    return frames;
  },

  errorBody({ status, message, contextOverflow }) {
    if (contextOverflow) {
      return {
        error: {
          type: 'context_too_long',
          message: message ?? "The conversation exceeds the model's context window of 8192 tokens.",
        },
      };
    }
    return {
      error: {
        type: ERROR_TYPES[status] ?? 'error',
        message: message ?? `Request failed with status ${status}.`,
      },
    };
  },

  // The real API refuses a tool result whose call it never made; adapters that lose ids break it.
  requestProblem(body) {
    const calls = new Set();
    for (const message of body?.messages ?? []) {
      for (const call of message.calls ?? []) calls.add(call.id);
      if (message.role === 'tool' && !calls.has(message.call_id)) {
        return `messages: a tool result for unknown call ${JSON.stringify(message.call_id)}`;
      }
    }
    return undefined;
  },

  responseHeaders: (requestIndex) => ({ 'x-request-id': `req_${requestIndex}` }),
};
