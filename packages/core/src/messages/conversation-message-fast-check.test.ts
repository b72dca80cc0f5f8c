import { propertyTimeout } from '@cairn/vitest-config/load';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationMessageArb, mutationArb, nearMissMessageArb } from '../../test/arbitraries.js';
import { copyPlainJson } from '../validation/plain-json-copy.js';
import { ConversationMessageSchema } from './conversation-message.js';
import { conversationMessageFastCheck } from './conversation-message-fast-check.js';
import { MAX_MESSAGE_DEPTH } from './parse-message-for-storage.js';

const fastCheck = conversationMessageFastCheck(Object.keys(ConversationMessageSchema.shape));
const schemaAccepts = (value: unknown) => ConversationMessageSchema.safeParse(value).success;

const at = '2026-11-22T10:00:00.000Z';
const call = (id: string, name = 'read_file') => ({
  id,
  type: 'function',
  function: { name, arguments: '{"path":"a"}' },
});
/** Messages of the shapes a store appends most. */
const COMMON: Record<string, unknown>[] = [
  { id: 'u1', role: 'user', content: 'Hello', createdAt: at, seq: 1, mode: 'chat' },
  { id: 's1', role: 'system', content: 'Be brief', createdAt: at },
  {
    id: 'a1',
    role: 'assistant',
    content: null,
    createdAt: at,
    partType: 'tool_call',
    tool_calls: [call('c1')],
  },
  {
    id: 't1',
    role: 'tool',
    content: 'file text',
    tool_call_id: 'c1',
    toolName: 'read_file',
    duration: 12,
    isError: false,
    createdAt: at,
    fullOutputPath: 'tool-results/c/t1.txt',
    runId: 'r1',
    agentId: 'dev',
    includeInContext: true,
    isCollapsed: true,
    aFieldFromANewerVersion: { kept: true },
  },
  { id: 'a2', role: 'assistant', content: 'Done.', createdAt: '2026-11-22T11:00:00+01:00' },
];

const FIELDS = [
  ...new Set(COMMON.flatMap((message) => Object.keys(message))),
  'reasoning',
  'providerMetadata',
  'somethingNew',
];
// Values aimed at the edges of each field check: empty, wrong type, out of range, almost a date.
const EDGE_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  0,
  -1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  {},
  'user',
  'assistant',
  'tool',
  'agent',
  '2024-02-29T10:00:00Z',
  '2023-02-29T10:00:00Z',
  '2026-11-22T10:00:00',
  '2026-13-01T10:00:00Z',
  [call('c1')],
  [call('c1'), call('c1', 'other')],
  [call('c1', '')],
  [{ ...call('c1'), type: 'fn' }],
  [{ ...call(''), id: '' }],
  [{ ...call('c1'), function: { name: 'f', arguments: {} } }],
  [{ ...call('c1'), extra: 1 }],
];

describe('the conversation message fast check', () => {
  it('accepts the common messages itself', () => {
    for (const message of COMMON) {
      expect(schemaAccepts(message)).toBe(true);
      expect(fastCheck(message), String(message.id)).toBe(true);
    }
  });

  it('never accepts what the schema refuses: each common message with any one field set to any edge value', () => {
    for (const message of COMMON) {
      for (const field of FIELDS) {
        for (const value of EDGE_VALUES) {
          const changed = { ...message, [field]: value };
          if (fastCheck(changed)) expect(schemaAccepts(changed), `${field}: ${String(value)}`).toBe(true);
        }
      }
    }
  });

  it('never accepts what the schema refuses: random changes, near misses, broken messages, anything', () => {
    const edgeMessage = fc
      .tuple(
        fc.constantFrom(...COMMON),
        fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...EDGE_VALUES)), {
          minLength: 2,
          maxLength: 4,
        }),
      )
      .map(([message, changes]) => Object.assign({ ...message }, Object.fromEntries(changes)));
    const broken = fc
      .tuple(conversationMessageArb, mutationArb)
      .map(([message, mutation]) => mutation.apply({ ...message }));
    fc.assert(
      fc.property(
        fc.oneof(
          edgeMessage,
          nearMissMessageArb,
          broken,
          conversationMessageArb,
          fc.anything({ withSparseArray: true, withNullPrototype: true }),
        ),
        (value) => {
          if (fastCheck(value)) expect(schemaAccepts(value)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses arrays with holes, own methods or another prototype, and reads each field once', () => {
    const base = { id: 'a', role: 'assistant', createdAt: at, content: null };
    const holes = [call('x'), call('y')];
    delete holes[0];
    const everyLies = [null];
    Object.assign(everyLies, { every: () => true, forEach: () => undefined });
    class Calls extends Array {}
    const subclassed = Calls.from([call('x')]);
    const duplicates = [call('x'), call('x')];
    Object.assign(duplicates, { forEach: () => undefined });
    for (const message of [
      { ...base, tool_calls: new Array(2) },
      { ...base, tool_calls: holes },
      { ...base, tool_calls: everyLies },
      { ...base, tool_calls: duplicates },
    ]) {
      expect(fastCheck(message)).toBe(false);
      expect(schemaAccepts(message)).toBe(false);
    }
    // Valid, but not an ordinary array: the schema's call.
    expect(fastCheck({ ...base, tool_calls: subclassed })).toBe(false);
    // Each field is read once: the message is judged as read, whatever a second read would say.
    let reads = 0;
    const flipping = Object.defineProperty({ ...base }, 'role', {
      enumerable: true,
      get: () => (reads++ === 0 ? 'assistant' : 'robot'),
    });
    expect(fastCheck(flipping)).toBe(true);
    expect(reads).toBe(1);
  });

  it('accepts JSON fields of JSON values itself, walking them (a history loaded from a store)', () => {
    const metadata = { anthropic: { signature: 'sig', nested: [1, { ok: true }, null] } };
    for (const message of [
      { id: 'a', role: 'assistant', createdAt: at, reasoning: [{ text: 'hm' }] },
      { id: 'a', role: 'assistant', createdAt: at, content: 'x', providerMetadata: metadata },
      {
        id: 'a',
        role: 'assistant',
        createdAt: at,
        reasoning: [{ text: '', redacted: true, providerMetadata: metadata }],
      },
      {
        id: 't',
        role: 'tool',
        tool_call_id: 'c',
        content: 'x',
        createdAt: at,
        structuredResult: { rows: [[1, 'a']] },
      },
    ]) {
      expect(schemaAccepts(message)).toBe(true);
      expect(fastCheck(message)).toBe(true);
    }
  });

  it('leaves JSON fields holding what JSON cannot (NaN, a Date, a symbol key, a hole, a cycle) to the schema', () => {
    const base = { id: 't', role: 'tool', tool_call_id: 'c', content: 'x', createdAt: at };
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const sparse = [1, 2];
    delete sparse[0];
    const hidden = Object.defineProperty({ a: 1 }, 'b', { value: Number.NaN, enumerable: false });
    let deep: unknown = 1;
    for (let level = 0; level < 100; level++) deep = [deep];
    for (const value of [
      Number.NaN,
      { at: new Date(0) },
      { [Symbol('s')]: 1 },
      sparse,
      cycle,
      hidden,
      deep,
      JSON.parse('{"__proto__":{"a":1}}'),
      () => 1,
    ]) {
      expect(fastCheck({ ...base, structuredResult: value })).toBe(false);
      expect(fastCheck({ ...base, providerMetadata: { openai: { value } } })).toBe(false);
    }
  });

  it('never accepts JSON fields the schema refuses: anything in structured results, provider data and reasoning', () => {
    const anything = fc.anything({
      withSparseArray: true,
      withNullPrototype: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withObjectString: true,
    });
    const base = COMMON[4] as Record<string, unknown>;
    const placed = fc.oneof(
      anything.map((value) => ({ ...base, structuredResult: value })),
      fc.tuple(fc.string(), fc.string(), anything).map(([namespace, key, value]) => ({
        ...base,
        providerMetadata: { [namespace]: { [key]: value } },
      })),
      fc.tuple(anything, anything).map(([text, metadata]) => ({
        ...base,
        reasoning: [{ text, providerMetadata: { p: { k: metadata } } }],
      })),
      anything.map((value) => ({ ...base, providerMetadata: value, reasoning: value })),
    );
    fc.assert(
      fc.property(placed, (message) => {
        if (fastCheck(message)) expect(schemaAccepts(message)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // And JSON values are accepted, not sent to the schema.
    const tool = COMMON[3] as Record<string, unknown>;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const message = { ...tool, structuredResult: value };
        if (!JSON.stringify(value ?? null).includes('"__proto__"')) expect(fastCheck(message)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves objects that are not plain to the schema', () => {
    const inherited = Object.assign(Object.create({ inherited: 1 }), {
      id: 'u',
      role: 'user',
      createdAt: at,
      content: 'x',
    });
    expect(fastCheck(inherited)).toBe(false);
    expect(fastCheck([])).toBe(false);
  });

  it('refuses to be built for a schema that lacks a field it tests', () => {
    expect(() => conversationMessageFastCheck(['id', 'role', 'createdAt'])).toThrow(/schema lacks/);
  });
});

describe('the fast check for plain JSON copies (plainJson)', () => {
  const plainFastCheck = conversationMessageFastCheck(Object.keys(ConversationMessageSchema.shape), {
    plainJson: true,
  });
  /** The value as parseMessageForStorage hands it over, or undefined when the copy is refused. */
  const plainCopy = (value: unknown) => {
    try {
      return copyPlainJson(value, MAX_MESSAGE_DEPTH, 'value');
    } catch {
      return undefined;
    }
  };
  const metadata = { anthropic: { signature: 'sig', nested: [1, { ok: true }] } };
  const withJsonFields: Record<string, unknown>[] = [
    ...COMMON,
    { ...COMMON[3], structuredResult: { stdout: 'ok', lines: [1, 2, { n: null }] } },
    {
      ...COMMON[2],
      reasoning: [{ text: 'hm', redacted: false, providerMetadata: metadata }],
      providerMetadata: metadata,
    },
    { ...COMMON[4], reasoning: [], providerMetadata: {} },
  ];
  const JSON_FIELDS = ['structuredResult', 'providerMetadata', 'reasoning'];
  // Shapes aimed at the JSON fields' checks: wrong containers, empty keys, bad parts.
  const JSON_EDGE_VALUES: unknown[] = [
    ...EDGE_VALUES,
    { '': {} },
    { a: [] },
    { a: 1 },
    { a: { b: [1, 'x'] } },
    [{}],
    [{ text: 1 }],
    [{ text: 'x', redacted: 'no' }],
    [{ text: 'x', providerMetadata: { a: [] } }],
    [{ text: 'x', providerMetadata: { '': {} } }],
    [{ text: 'x', extra: 1 }],
    [1],
    [[{ text: 'x' }]],
  ];

  it('accepts messages with structured results, reasoning and provider data itself', () => {
    for (const message of withJsonFields) {
      expect(schemaAccepts(message)).toBe(true);
      expect(plainFastCheck(plainCopy(message)), String(message.id)).toBe(true);
    }
  });

  it('never accepts a plain copy the schema refuses: each message with any one field set to any edge value', () => {
    for (const message of withJsonFields) {
      for (const field of [...FIELDS, ...JSON_FIELDS]) {
        for (const value of JSON_EDGE_VALUES) {
          const plain = plainCopy({ ...message, [field]: value });
          if (plain !== undefined && plainFastCheck(plain))
            expect(schemaAccepts(plain), `${field}: ${JSON.stringify(value)}`).toBe(true);
        }
      }
    }
  });

  it(
    'never accepts a plain copy the schema refuses: random changes, near misses, broken messages',
    () => {
      const edgeMessage = fc
        .tuple(
          fc.constantFrom(...withJsonFields),
          fc.array(
            fc.tuple(fc.constantFrom(...FIELDS, ...JSON_FIELDS), fc.constantFrom(...JSON_EDGE_VALUES)),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        )
        .map(([message, changes]) => Object.assign({ ...message }, Object.fromEntries(changes)));
      const jsonFieldNearMiss = fc
        .tuple(conversationMessageArb, fc.constantFrom(...JSON_FIELDS), fc.jsonValue({ maxDepth: 3 }))
        .map(([message, field, value]) => ({ ...message, [field]: value }));
      const broken = fc
        .tuple(conversationMessageArb, mutationArb)
        .map(([message, mutation]) => mutation.apply({ ...message }));
      fc.assert(
        fc.property(
          fc.oneof(edgeMessage, jsonFieldNearMiss, nearMissMessageArb, broken, conversationMessageArb),
          (value) => {
            const plain = plainCopy(value);
            if (plain !== undefined && plainFastCheck(plain)) expect(schemaAccepts(plain)).toBe(true);
          },
        ),
        { numRuns: 3000 },
      );
    },
    propertyTimeout(30_000),
  );
});
