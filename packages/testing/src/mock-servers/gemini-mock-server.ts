import type { TokenUsage } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { argumentsValue, chunkString } from '../resolve-script-turn.js';
import type { ScriptFinish } from '../script-turn.js';
import { geminiRequestProblem } from './gemini-request-rules.js';
import type {
  MockAnswerContext,
  MockErrorInput,
  MockProviderProtocol,
  MockStreamFrame,
} from './mock-provider-protocol.js';
import { MOCK_SIGNATURE_KINDS, mockSignature } from './mock-signature.js';

// generateContent / streamGenerateContent as generativelanguage.googleapis.com answers them (the
// SDK's baseUrl is the bare origin; it appends `/v1beta/models/<model>:<method>`), and as Vertex AI
// does: `/v1beta1/projects/<p>/locations/<l>/publishers/google/models/<model>:<method>`, or without
// the project and location in express mode (an API key).

const ROUTE =
  /^\/(?:(?:v1|v1beta|v1alpha)\/models|(?:v1|v1beta1)\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models)\/([^/:]+):(generateContent|streamGenerateContent)$/;

// Gemini reports STOP for function-call turns too; adapters infer `tool_calls` from the parts.
const FINISH_REASONS: Record<ScriptFinish, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
};

const ERRORS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: {
    status: 'UNAUTHENTICATED',
    message:
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'models/unknown is not found for API version v1beta.' },
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
  500: {
    status: 'INTERNAL',
    message:
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'The request timed out. Please try again.' },
};

const CONTEXT_OVERFLOW_MESSAGE =
  'The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).';

// promptTokenCount includes cached tokens; candidatesTokenCount excludes the thoughts.
function usageMetadata(usage: TokenUsage, final: boolean): Record<string, unknown> {
  const prompt = { promptTokenCount: usage.inputTokens };
  const details = { promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }] };
  // Before the last chunk the API repeats the prompt count only (see the fixtures).
  if (!final) return { ...prompt, totalTokenCount: usage.inputTokens, ...details };
  const thoughts = usage.reasoningTokens ?? 0;
  return {
    ...prompt,
    candidatesTokenCount: usage.outputTokens - thoughts,
    totalTokenCount: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    ...definedFields({ cachedContentTokenCount: usage.cacheReadTokens }),
    ...details,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

const signatureOf = (context: MockAnswerContext) => mockSignature(MOCK_SIGNATURE_KINDS.gemini, context.turn);

// Gemini signs the first function call of a turn (Gemini 3 requires it back), never giving an id.
function functionCallParts(context: MockAnswerContext): Record<string, unknown>[] {
  return context.turn.toolCalls.map((call, index) => ({
    functionCall: { name: call.name, args: argumentsValue(call) },
    ...(index === 0 ? { thoughtSignature: signatureOf(context) } : {}),
  }));
}

function candidateResponse(
  context: MockAnswerContext,
  parts: Record<string, unknown>[],
  final: boolean,
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
  if (final) candidate.finishReason = FINISH_REASONS[context.turn.finish];
  return {
    candidates: [candidate],
    usageMetadata: usageMetadata(context.turn.usage, final),
    modelVersion: context.model,
    responseId: `mockResp${context.requestIndex}`,
  };
}

export const geminiMockProtocol: MockProviderProtocol = {
  provider: 'gemini',
  baseUrlPath: '',
  lineEnding: '\r\n',
  rawFinishReasons: FINISH_REASONS,
  // Function calls arrive whole, in the last chunk.
  toolArgumentsWhole: true,
  reasoningSignature: (turn) => mockSignature(MOCK_SIGNATURE_KINDS.gemini, turn),

  route(method, path, query) {
    const match = ROUTE.exec(path);
    if (method !== 'POST' || match === null) return undefined;
    const stream = match[2] === 'streamGenerateContent';
    return {
      stream,
      framing: query.get('alt') === 'sse' ? 'sse' : 'json-array',
      model: match[1] ?? 'mock-model',
    };
  },

  // Never on the wire: Gemini function calls carry no id (adapters synthesise their own).
  toolCallId: (requestIndex, callIndex) => `gemini_call_${requestIndex}_${callIndex}`,

  response(context) {
    const { turn } = context;
    const parts: Record<string, unknown>[] = [];
    if (turn.reasoning)
      parts.push({ text: turn.reasoning, thought: true, thoughtSignature: signatureOf(context) });
    if (turn.text) parts.push({ text: turn.text });
    parts.push(...functionCallParts(context));
    if (parts.length === 0) parts.push({ text: '' });
    return candidateResponse(context, parts, true);
  },

  streamFrames(context) {
    const { turn } = context;
    const pieces: Record<string, unknown>[][] = [];
    const thoughts = chunkString(turn.reasoning ?? '', turn.chunkSize);
    thoughts.forEach((text, index) => {
      const last = index === thoughts.length - 1;
      pieces.push([{ text, thought: true, ...(last ? { thoughtSignature: signatureOf(context) } : {}) }]);
    });
    for (const text of chunkString(turn.text ?? '', turn.chunkSize)) pieces.push([{ text }]);
    // Function calls arrive whole, together, in the last chunk (with the finish reason).
    const calls = functionCallParts(context);
    if (calls.length > 0 || pieces.length === 0) pieces.push(calls.length > 0 ? calls : [{ text: '' }]);
    return pieces.map(
      (parts, index): MockStreamFrame => ({
        data: JSON.stringify(candidateResponse(context, parts, index === pieces.length - 1)),
      }),
    );
  },

  requestProblem: geminiRequestProblem,

  errorBody({ status, message, contextOverflow, retryAfterMs }: MockErrorInput) {
    const known = contextOverflow
      ? { status: 'INVALID_ARGUMENT', message: CONTEXT_OVERFLOW_MESSAGE }
      : (ERRORS[status] ?? {
          status: status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION',
          message: `HTTP ${status}`,
        });
    const error: Record<string, unknown> = {
      code: status,
      message: message ?? known.message,
      status: known.status,
    };
    // The SDK's fetch error exposes no headers, only these details: RetryInfo is how a delay gets through.
    if (retryAfterMs !== undefined) {
      error.details = [
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterMs / 1000}s` },
      ];
    }
    return { error };
  },
};
