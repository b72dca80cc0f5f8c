// fast-check generators for Cairn's data types, shared by the property tests of this package.
import fc from 'fast-check';
import {
  type AgentOutput,
  type ConversationMessage,
  ConversationModeSchema,
  FinishReasonSchema,
  type JsonValue,
  KNOWN_MESSAGE_PART_TYPES,
  KNOWN_WIDGET_TYPES,
  type OpenAIToolCall,
  type ToolPolicy,
} from '../src/index.js';

const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());
// JSON values as they come back from disk: fast-check may generate -0, which JSON writes as 0. No
// `__proto__` keys: zod's parse output drops them (it assigns them, which sets a prototype), so the
// schema round-trip properties cannot hold for them; Cairn's own parse and every store keep them
// (the store kit's "plain JSON values" cases).
const jsonValue: fc.Arbitrary<JsonValue> = fc
  .jsonValue()
  .map((value) => JSON.parse(JSON.stringify(value), (key, kept) => (key === '__proto__' ? undefined : kept)));
const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
const metadataKey = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,10}$/);

const toolCallArb: fc.Arbitrary<OpenAIToolCall> = fc.record({
  id,
  type: fc.constant('function' as const),
  function: fc.record({ name, arguments: fc.oneof(fc.json(), text) }),
});

const toolCalls = fc.uniqueArray(toolCallArb, { selector: (call) => call.id, minLength: 1, maxLength: 4 });

const providerMetadata = fc.dictionary(metadataKey, fc.dictionary(metadataKey, jsonValue, { maxKeys: 3 }), {
  minKeys: 1,
  maxKeys: 2,
});

const widget = fc.record(
  {
    type: fc.constantFrom(...KNOWN_WIDGET_TYPES),
    title: text,
    options: fc.array(fc.record({ id, label: text }), { maxLength: 3 }),
    progress: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: ['type'] },
);

// The optional fields any role may carry.
const extras = fc.record(
  {
    partType: fc.constantFrom(...KNOWN_MESSAGE_PART_TYPES),
    toolName: name,
    duration: fc.nat(),
    isCollapsed: fc.boolean(),
    widget,
    mode: fc.constantFrom(...ConversationModeSchema.options),
    runId: id,
    agentId: id,
    includeInContext: fc.boolean(),
    fullOutputPath: id.map((ref) => `tool-results/${ref}.json`),
    providerMetadata,
    seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  },
  { requiredKeys: [] },
);

const base = fc.record({ id, createdAt: isoDate });

const reasoning = fc.array(
  fc.record({ text, redacted: fc.boolean(), providerMetadata }, { requiredKeys: ['text'] }),
  { minLength: 1, maxLength: 2 },
);

const userOrSystem = fc.record({ role: fc.constantFrom('user' as const, 'system' as const), content: text });
const assistant = fc.oneof(
  fc.record(
    { role: fc.constant('assistant' as const), content: text, reasoning, interrupted: fc.boolean() },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(text, { nil: null }),
      tool_calls: toolCalls,
      reasoning,
    },
    { requiredKeys: ['role', 'content', 'tool_calls'] },
  ),
  fc.record({ role: fc.constant('assistant' as const), content: fc.constant(null) }),
);
const tool = fc.record(
  {
    role: fc.constant('tool' as const),
    content: text,
    tool_call_id: id,
    isError: fc.boolean(),
    structuredResult: jsonValue,
    interrupted: fc.boolean(),
  },
  { requiredKeys: ['role', 'content', 'tool_call_id'] },
);

/** Any valid conversation message, legacy (few fields) to fully populated. */
export const conversationMessageArb: fc.Arbitrary<ConversationMessage> = fc
  .tuple(base, fc.oneof(userOrSystem, assistant, tool), extras)
  .map(([head, body, more]) => ({ ...head, ...body, ...more }) as ConversationMessage);

const junk = fc.oneof(jsonValue, fc.string(), fc.constant(undefined), fc.integer({ min: -2, max: 2 }));
const fieldNames = fc.constantFrom(
  'id',
  'role',
  'content',
  'createdAt',
  'tool_calls',
  'tool_call_id',
  'reasoning',
  'isError',
  'structuredResult',
  'interrupted',
  'partType',
  'widget',
  'mode',
  'includeInContext',
  'seq',
  'providerMetadata',
);

/** A valid message with one field set to a random JSON value (or removed): valid or not. */
export const nearMissMessageArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(conversationMessageArb, fieldNames, junk)
  .map(([message, field, value]) => {
    const copy: Record<string, unknown> = { ...message };
    if (value === undefined) delete copy[field];
    else copy[field] = value;
    return copy;
  });

/** A change that makes a valid message invalid, and the field path the error must name. */
export interface Mutation {
  label: string;
  path: string;
  apply(message: Record<string, unknown>): Record<string, unknown>;
}

const mutations: Mutation[] = [
  { label: 'missing id', path: 'id', apply: ({ id: _, ...rest }) => rest },
  { label: 'unknown role', path: 'role', apply: (m) => ({ ...m, role: 'robot' }) },
  { label: 'createdAt not ISO', path: 'createdAt', apply: (m) => ({ ...m, createdAt: 'yesterday' }) },
  { label: 'numeric content', path: 'content', apply: (m) => ({ ...m, content: 42 }) },
  {
    label: 'includeInContext not boolean',
    path: 'includeInContext',
    apply: (m) => ({ ...m, includeInContext: 'yes' }),
  },
  { label: 'negative seq', path: 'seq', apply: (m) => ({ ...m, seq: -1 }) },
  { label: 'seq 0', path: 'seq', apply: (m) => ({ ...m, seq: 0 }) },
  { label: 'fractional seq', path: 'seq', apply: (m) => ({ ...m, seq: 1.5 }) },
  { label: 'unknown mode', path: 'mode', apply: (m) => ({ ...m, mode: 'batch' }) },
  {
    label: 'tool message without tool_call_id',
    path: 'tool_call_id',
    apply: ({ tool_call_id: _, tool_calls: __, reasoning: ___, ...rest }) => ({
      ...rest,
      role: 'tool',
      content: 'out',
    }),
  },
  {
    label: 'tool_calls on a user message',
    path: 'tool_calls',
    apply: ({ tool_call_id: _, isError: __, structuredResult: ___, ...rest }) => ({
      ...rest,
      role: 'user',
      content: 'hi',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    }),
  },
  {
    label: 'tool call with a wrong type',
    path: 'tool_calls[0].type',
    apply: ({ tool_call_id: _, isError: __, structuredResult: ___, ...rest }) => ({
      ...rest,
      role: 'assistant',
      tool_calls: [{ id: 'c1', type: 'fn', function: { name: 'f', arguments: '{}' } }],
    }),
  },
  {
    label: 'tool call arguments as an object',
    path: 'tool_calls[0].function.arguments',
    apply: ({ tool_call_id: _, isError: __, structuredResult: ___, ...rest }) => ({
      ...rest,
      role: 'assistant',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: { path: 'a' } } }],
    }),
  },
];

export const mutationArb = fc.constantFrom(...mutations);

const timestamp = isoDate;

/** Any valid AgentOutput event. */
export const agentOutputArb: fc.Arbitrary<AgentOutput> = fc.oneof(
  fc.record(
    {
      type: fc.constant('session_start' as const),
      timestamp,
      sessionId: id,
      model: name,
      tools: fc.array(name),
    },
    { requiredKeys: ['type', 'timestamp'] },
  ),
  fc.record({ type: fc.constant('user_message' as const), timestamp, text }),
  fc.record({ type: fc.constant('text_delta' as const), timestamp, id, delta: text }),
  fc.record({ type: fc.constant('text' as const), timestamp, id, text }),
  fc.record({ type: fc.constant('reasoning_delta' as const), timestamp, id, delta: text }),
  fc.record(
    {
      type: fc.constant('reasoning' as const),
      timestamp,
      id,
      text,
      redacted: fc.boolean(),
      providerMetadata,
    },
    { requiredKeys: ['type', 'timestamp', 'id', 'text'] },
  ),
  fc.record({ type: fc.constant('tool_input_delta' as const), timestamp, id, delta: text }),
  fc.record(
    {
      type: fc.constant('tool_use' as const),
      timestamp,
      id,
      toolName: name,
      input: jsonValue,
      messageId: id,
      parentToolUseId: id,
    },
    { requiredKeys: ['type', 'timestamp', 'id', 'toolName', 'input'] },
  ),
  fc.record(
    {
      type: fc.constant('tool_result' as const),
      timestamp,
      toolUseId: id,
      output: text,
      isError: fc.boolean(),
      structured: jsonValue,
    },
    { requiredKeys: ['type', 'timestamp', 'toolUseId', 'output', 'isError'] },
  ),
  fc.record({
    type: fc.constant('usage' as const),
    timestamp,
    usage: fc.record(
      { inputTokens: fc.nat(), outputTokens: fc.nat(), cacheReadTokens: fc.nat(), reasoningTokens: fc.nat() },
      { requiredKeys: ['inputTokens', 'outputTokens'] },
    ),
  }),
  fc.record(
    {
      type: fc.constant('finish' as const),
      timestamp,
      reason: fc.constantFrom(...FinishReasonSchema.options),
      rawReason: name,
    },
    { requiredKeys: ['type', 'timestamp', 'reason'] },
  ),
  fc.record(
    {
      type: fc.constant('error' as const),
      timestamp,
      code: fc.constantFrom('LLM_RATE_LIMITED', 'LLM_BAD_RESPONSE', 'TOOL_FAILED'),
      message: text,
      retryable: fc.boolean(),
      raw: text,
    },
    { requiredKeys: ['type', 'timestamp', 'code', 'message', 'retryable'] },
  ),
  fc.record(
    {
      type: fc.constant('session_result' as const),
      timestamp,
      isError: fc.boolean(),
      turns: fc.nat(),
      durationMs: fc.nat(),
      costUsd: fc.double({ min: 0, max: 100, noNaN: true }),
    },
    { requiredKeys: ['type', 'timestamp', 'isError'] },
  ),
  fc.record(
    {
      type: fc.constant('retry' as const),
      timestamp,
      attempt: fc.integer({ min: 1, max: 20 }),
      maxAttempts: fc.integer({ min: 1, max: 20 }),
      delayMs: fc.double({ min: 0, max: 60_000, noNaN: true }),
      status: fc.constantFrom(429, 500, 503, 529),
      error: name,
    },
    { requiredKeys: ['type', 'timestamp', 'attempt'] },
  ),
  fc.record(
    {
      type: fc.constant('task_progress' as const),
      timestamp,
      taskId: id,
      toolUseId: id,
      status: fc.constantFrom('started', 'running', 'completed', 'stopped'),
      description: text,
      prompt: text,
      summary: text,
      totalTokens: fc.nat(),
      durationMs: fc.nat(),
    },
    { requiredKeys: ['type', 'timestamp', 'status'] },
  ),
  fc.record({ type: fc.constant('status' as const), timestamp, status: name, message: text }),
  fc.record({ type: fc.constant('unknown' as const), timestamp, source: name, raw: jsonValue }),
);

const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 5 });
const selector = fc.record({ categories: names, tools: names }, { requiredKeys: [] });

/** Random tool policies over a small universe of names, so rules actually overlap. */
export const toolPolicyArb: fc.Arbitrary<ToolPolicy> = fc.record(
  { allow: selector, deny: selector },
  { requiredKeys: [] },
);

/** A tool drawn from the same small universe. */
export const toolIdentityArb = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
  category: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
});

/** Any JavaScript value a caller might hand over, JSON-incompatible kinds (BigInt, Map, boxed, sparse…) included. */
export const anyJsValue = (options: { maxDepth?: number } = {}) =>
  fc.anything({
    ...options,
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withNullPrototype: true,
    withObjectString: true,
    withSet: true,
    withSparseArray: true,
    withTypedArray: true,
  });
