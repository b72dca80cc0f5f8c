import type { TokenUsage } from '@cairn/core';
import { isRecord } from '../is-record.js';
import { chunkString, type ResolvedScriptTurn, type ResolvedToolCall } from '../resolve-script-turn.js';
import type { MockAnswerContext, MockProviderProtocol, MockStreamFrame } from './mock-provider-protocol.js';
import { MOCK_SIGNATURE_KINDS, mockSignature, mockTurnDigest } from './mock-signature.js';
import { openAIMockProtocol } from './openai-mock-server.js';
import { openAIResponsesRequestProblem } from './openai-responses-request-rules.js';

// The Responses API (`POST /v1/responses`) as api.openai.com answers it; Codex CLI speaks it.

type Item = Record<string, unknown>;

function responsesUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
}

/** Names of the request's freeform (`type: "custom"`) tools: their calls carry raw `input` text. */
function customToolNames(body: unknown): ReadonlySet<string> {
  const tools = isRecord(body) && Array.isArray(body.tools) ? body.tools : [];
  return new Set(
    tools.flatMap((tool) =>
      isRecord(tool) && tool.type === 'custom' && typeof tool.name === 'string' ? [tool.name] : [],
    ),
  );
}

/** One output item with its streamed events, built once so the stream and the JSON answer agree. */
interface OutputPlan {
  item: Item;
  /** The events between `output_item.added` and `output_item.done` (without sequence numbers). */
  events: Item[];
}

/** The request asked for the reasoning back encrypted, as a client with `store: false` must. */
function wantsEncryptedReasoning(body: unknown): boolean {
  return (
    isRecord(body) && Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content')
  );
}

function reasoningPlan(
  id: string,
  index: number,
  text: string,
  chunkSize: number,
  encryptedContent: string | undefined,
): OutputPlan {
  const part = { item_id: id, output_index: index, summary_index: 0 };
  return {
    item: {
      id,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text }],
      ...(encryptedContent === undefined ? {} : { encrypted_content: encryptedContent }),
    },
    events: [
      { type: 'response.reasoning_summary_part.added', ...part, part: { type: 'summary_text', text: '' } },
      ...chunkString(text, chunkSize).map((delta) => ({
        type: 'response.reasoning_summary_text.delta',
        ...part,
        delta,
      })),
      { type: 'response.reasoning_summary_text.done', ...part, text },
      { type: 'response.reasoning_summary_part.done', ...part, part: { type: 'summary_text', text } },
    ],
  };
}

function messagePlan(id: string, index: number, text: string, chunkSize: number): OutputPlan {
  const at = { item_id: id, output_index: index, content_index: 0 };
  const part = { type: 'output_text', text, annotations: [], logprobs: [] };
  return {
    item: { id, type: 'message', status: 'completed', role: 'assistant', content: [part] },
    events: [
      { type: 'response.content_part.added', ...at, part: { ...part, text: '' } },
      ...chunkString(text, chunkSize).map((delta) => ({
        type: 'response.output_text.delta',
        ...at,
        delta,
        logprobs: [],
      })),
      { type: 'response.output_text.done', ...at, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, part },
    ],
  };
}

function toolCallPlan(
  id: string,
  index: number,
  call: ResolvedToolCall,
  custom: boolean,
  chunkSize: number,
): OutputPlan {
  const at = { item_id: id, output_index: index };
  const pieces = chunkString(call.arguments, chunkSize);
  if (custom) {
    return {
      item: {
        id,
        type: 'custom_tool_call',
        status: 'completed',
        call_id: call.id,
        name: call.name,
        input: call.arguments,
      },
      events: [
        ...pieces.map((delta) => ({ type: 'response.custom_tool_call_input.delta', ...at, delta })),
        { type: 'response.custom_tool_call_input.done', ...at, input: call.arguments },
      ],
    };
  }
  return {
    item: {
      id,
      type: 'function_call',
      status: 'completed',
      arguments: call.arguments,
      call_id: call.id,
      name: call.name,
    },
    events: [
      ...pieces.map((delta) => ({ type: 'response.function_call_arguments.delta', ...at, delta })),
      { type: 'response.function_call_arguments.done', ...at, arguments: call.arguments },
    ],
  };
}

/** The output items of a turn in the order the model writes them: reasoning, text, tool calls. */
function outputPlans(context: MockAnswerContext): OutputPlan[] {
  const { turn } = context;
  const custom = customToolNames(context.body);
  const plans: OutputPlan[] = [];
  // From the turn's content, as real ids are opaque: the same turn answered by `generate` and by
  // `stream` gives the same message, item ids and all, so parity checks compare it whole.
  const digest = mockTurnDigest(turn);
  const nextId = (prefix: string) => `${prefix}_${digest}${plans.length}`;
  if (turn.reasoning) {
    const encrypted = wantsEncryptedReasoning(context.body)
      ? mockSignature(MOCK_SIGNATURE_KINDS.openaiResponses, turn)
      : undefined;
    plans.push(reasoningPlan(nextId('rs'), plans.length, turn.reasoning, turn.chunkSize, encrypted));
  }
  if (turn.text) plans.push(messagePlan(nextId('msg'), plans.length, turn.text, turn.chunkSize));
  for (const call of turn.toolCalls) {
    const prefix = custom.has(call.name) ? 'ctc' : 'fc';
    plans.push(toolCallPlan(nextId(prefix), plans.length, call, custom.has(call.name), turn.chunkSize));
  }
  return plans;
}

/** The response object; `output` and `usage` only once it has ended. */
function responseObject(context: MockAnswerContext, ended: boolean, output: Item[]): Item {
  const body = isRecord(context.body) ? context.body : {};
  const { turn } = context;
  const incomplete = turn.finish === 'length' || turn.finish === 'content_filter';
  const status = ended ? (incomplete ? 'incomplete' : 'completed') : 'in_progress';
  return {
    id: `resp_mock${context.requestIndex}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details:
      ended && incomplete
        ? { reason: turn.finish === 'length' ? 'max_output_tokens' : 'content_filter' }
        : null,
    instructions: body.instructions ?? null,
    model: context.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? null,
    store: body.store ?? true,
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    usage: ended ? responsesUsage(turn.usage) : null,
  };
}

function terminalEventType(turn: ResolvedScriptTurn): string {
  return turn.finish === 'length' || turn.finish === 'content_filter'
    ? 'response.incomplete'
    : 'response.completed';
}

export const openAIResponsesMockProtocol: MockProviderProtocol = {
  provider: 'openai-responses',
  baseUrlPath: '/v1',
  // The response's status, or its incomplete_details.reason when incomplete.
  rawFinishReasons: {
    stop: 'completed',
    tool_calls: 'completed',
    length: 'max_output_tokens',
    content_filter: 'content_filter',
  },
  malformedEvent: 'response.output_text.delta',

  route(method, path, _query, body) {
    if (method !== 'POST' || path !== '/v1/responses') return undefined;
    const record = isRecord(body) ? body : {};
    return { stream: record.stream === true, model: String(record.model ?? 'mock-model') };
  },

  toolCallId: (requestIndex, callIndex) => `call_mock${requestIndex}_${callIndex}`,

  response(context) {
    return responseObject(
      context,
      true,
      outputPlans(context).map((plan) => plan.item),
    );
  },

  streamFrames(context) {
    const events: Item[] = [];
    const plans = outputPlans(context);
    events.push({ type: 'response.created', response: responseObject(context, false, []) });
    events.push({ type: 'response.in_progress', response: responseObject(context, false, []) });
    plans.forEach((plan, index) => {
      // `added` shows the item empty and in progress; `done` repeats it whole.
      const added = { ...plan.item, status: 'in_progress' } as Item;
      if (added.type === 'message') added.content = [];
      if (added.type === 'function_call') added.arguments = '';
      if (added.type === 'custom_tool_call') added.input = '';
      if (added.type === 'reasoning') {
        added.summary = [];
        delete added.status;
        delete added.encrypted_content;
      }
      events.push({ type: 'response.output_item.added', output_index: index, item: added });
      events.push(...plan.events);
      events.push({ type: 'response.output_item.done', output_index: index, item: plan.item });
    });
    const output = plans.map((plan) => plan.item);
    events.push({ type: terminalEventType(context.turn), response: responseObject(context, true, output) });
    // Every event names itself twice (SSE `event:` and `type`) and carries its place in the stream.
    return events.map(
      (event, sequence): MockStreamFrame => ({
        event: event.type as string,
        data: JSON.stringify({ ...event, sequence_number: sequence }),
      }),
    );
  },

  requestProblem: openAIResponsesRequestProblem,

  // What a reasoning item carries back when the request asked for `reasoning.encrypted_content`.
  reasoningSignature: (turn) => mockSignature(MOCK_SIGNATURE_KINDS.openaiResponses, turn),

  // The same error envelope as every api.openai.com endpoint.
  errorBody: (error) => openAIMockProtocol.errorBody(error),

  responseHeaders: (requestIndex) => ({ 'x-request-id': `req_mock${requestIndex}` }),
};
