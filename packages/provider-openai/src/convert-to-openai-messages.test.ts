import {
  CairnError,
  type ConversationMessage,
  type ModelMessage,
  ModelMessageSchema,
  OpenAIChatMessageSchema,
  toOpenAIMessage,
} from '@cairn/core';
import { propertyTimeout } from '@cairn/vitest-config/load';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';

const call = {
  id: 'call_1',
  type: 'function' as const,
  function: { name: 'read', arguments: '{"path":"a"}' },
};
const metadata = { anthropic: { signature: 'sig' }, gemini: { call_1: 'ts' } };

describe('convertToOpenAIMessages', () => {
  it('sends system, user and tool messages as { role, content[, tool_call_id] } only', () => {
    expect(
      convertToOpenAIMessages([
        { role: 'system', content: 'Be brief.', providerMetadata: metadata },
        { role: 'user', content: 'Hi', providerMetadata: metadata },
        { role: 'tool', content: 'boom', tool_call_id: 'call_1', isError: true, providerMetadata: metadata },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'tool', content: 'boom', tool_call_id: 'call_1' },
    ]);
  });

  it('drops reasoning and provider metadata from assistant messages', () => {
    const [converted] = convertToOpenAIMessages([
      {
        role: 'assistant',
        content: 'Reading it.',
        tool_calls: [call],
        reasoning: [{ text: 'think', providerMetadata: metadata }],
        providerMetadata: metadata,
      },
    ]);
    expect(converted).toEqual({ role: 'assistant', content: 'Reading it.', tool_calls: [call] });
  });

  it('sends content null, never an empty string, beside tool calls', () => {
    const messages: ModelMessage[] = [
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'assistant', content: null, tool_calls: [call] },
    ];
    for (const converted of convertToOpenAIMessages(messages)) {
      expect(converted).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
    }
  });

  it('keeps an empty text answer as an empty string', () => {
    expect(convertToOpenAIMessages([{ role: 'assistant', content: '' }])).toEqual([
      { role: 'assistant', content: '' },
    ]);
  });

  it('copies tool calls instead of sharing them with the caller', () => {
    const message: ModelMessage = { role: 'assistant', content: null, tool_calls: [call] };
    const [converted] = convertToOpenAIMessages([message]);
    expect(converted).toEqual(message);
    expect(converted && 'tool_calls' in converted && converted.tool_calls?.[0]).not.toBe(call);
  });

  it('refuses a tool message without tool_call_id and an unknown role with INVALID_MESSAGE', () => {
    const noId = { role: 'tool', content: 'x', tool_call_id: '' } as ModelMessage;
    const unknownRole = { role: 'developer', content: 'x' } as unknown as ModelMessage;
    for (const [messages, path] of [
      [[noId], 'messages.0.tool_call_id'],
      [[{ role: 'user', content: 'a' }, unknownRole], 'messages.1.role'],
    ] as const) {
      const error = captureError(() => convertToOpenAIMessages(messages));
      expect(CairnError.is(error, 'INVALID_MESSAGE')).toBe(true);
      expect((error as CairnError).details).toEqual({ path });
    }
  });
});

const text = fc.string({ maxLength: 20 });
const providerMetadata = fc.option(
  fc.dictionary(fc.constantFrom('openai', 'anthropic', 'gemini'), fc.dictionary(text, fc.jsonValue()), {
    minKeys: 1,
  }),
  { nil: undefined },
);
const toolCall = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  type: fc.constant('function' as const),
  function: fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), arguments: text }),
});
const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
const modelMessage: fc.Arbitrary<ModelMessage> = fc
  .oneof(
    fc.record({ role: fc.constantFrom('system' as const, 'user' as const), content: text, providerMetadata }),
    fc
      .oneof(
        fc.record({
          content: fc.option(text, { nil: null }),
          tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }),
        }),
        fc.record({ content: text }),
      )
      .chain((body) =>
        fc
          .record({
            role: fc.constant('assistant' as const),
            reasoning: fc.option(fc.array(fc.record({ text, redacted: fc.boolean(), providerMetadata })), {
              nil: undefined,
            }),
            providerMetadata,
          })
          .map((extras) => ({ ...extras, ...body })),
      ),
    fc.record({
      role: fc.constant('tool' as const),
      content: text,
      tool_call_id: fc.string({ minLength: 1, maxLength: 8 }),
      isError: fc.option(fc.boolean(), { nil: undefined }),
      providerMetadata,
    }),
  )
  .map((message) => withoutUndefined(message) as ModelMessage);

describe('convertToOpenAIMessages (properties)', () => {
  it(
    'matches core toOpenAIMessage for the same message, with null content beside tool calls',
    () => {
      fc.assert(
        fc.property(fc.array(modelMessage, { maxLength: 8 }), (messages) => {
          expect(messages.every((message) => ModelMessageSchema.safeParse(message).success)).toBe(true);
          const converted = convertToOpenAIMessages(messages);
          const expected = messages.map((message, index) => {
            const stored = {
              ...message,
              id: `m${index}`,
              createdAt: '2026-01-01T00:00:00Z',
            } as ConversationMessage;
            const openai = toOpenAIMessage(stored);
            return openai.role === 'assistant' && openai.tool_calls && openai.content === ''
              ? { ...openai, content: null }
              : openai;
          });
          expect(converted).toEqual(expected);
          for (const message of converted) expect(OpenAIChatMessageSchema.parse(message)).toEqual(message);
        }),
        // Each run converts, schema-parses and deep-compares up to 8 generated messages.
        { numRuns: 60 },
      );
    },
    propertyTimeout(30_000),
  );

  it(
    'is idempotent and leaves its input untouched',
    () => {
      fc.assert(
        fc.property(fc.array(modelMessage, { maxLength: 8 }), (messages) => {
          const before = structuredClone(messages);
          const once = convertToOpenAIMessages(messages);
          expect(messages).toEqual(before);
          expect(convertToOpenAIMessages(once as ModelMessage[])).toEqual(once);
        }),
        // Deep-copying and comparing large generated values: fewer runs.
        { numRuns: 50 },
      );
    },
    propertyTimeout(30_000),
  );
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
