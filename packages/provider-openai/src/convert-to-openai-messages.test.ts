import {
  CairnError,
  type ContentPart,
  type ConversationMessage,
  type ModelMessage,
  ModelMessageSchema,
  OpenAIChatMessageSchema,
  toOpenAIMessage,
} from '@cairn/core';
import { openAIMockProtocol } from '@cairn/testing';
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

const png = {
  type: 'image' as const,
  mediaType: 'image/png',
  source: { type: 'base64' as const, data: 'iVBORw0KGgo=' },
};
const pdf = {
  type: 'file' as const,
  mediaType: 'application/pdf',
  source: { type: 'base64' as const, data: 'JVBERi0xLjQK' },
  fileName: 'report.pdf',
};

describe('convertToOpenAIMessages (content parts)', () => {
  it('sends user images as image_url (data or https URL) and PDFs as named file_data', () => {
    const byUrl = { ...png, source: { type: 'url' as const, url: 'https://example.com/a.png' } };
    const { fileName: _name, ...unnamed } = pdf;
    expect(
      convertToOpenAIMessages([
        { role: 'user', content: [{ type: 'text', text: 'Look:' }, png, byUrl, pdf, unnamed] },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          {
            type: 'file',
            file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
          },
          {
            type: 'file',
            file: { filename: 'file-0-4.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
          },
        ],
      },
    ]);
  });

  it('sends an empty parts list as empty text (OpenAI refuses an empty array)', () => {
    expect(convertToOpenAIMessages([{ role: 'user', content: [] }])).toEqual([{ role: 'user', content: '' }]);
  });

  it('keeps tool results text and moves their media into one user message after the run of results', () => {
    const calls = [
      { ...call, id: 'c1' },
      { ...call, id: 'c2' },
      { ...call, id: 'c3' },
    ];
    const converted = convertToOpenAIMessages([
      { role: 'user', content: 'Show me' },
      { role: 'assistant', content: null, tool_calls: calls },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [
          { type: 'text', text: 'a chart' },
          { ...png, fileName: 'chart.png' },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'no image' },
      { role: 'tool', tool_call_id: 'c3', content: [pdf] },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(converted.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'a chart\n[image: chart.png]' },
      { role: 'tool', tool_call_id: 'c2', content: 'no image' },
      { role: 'tool', tool_call_id: 'c3', content: '[file: report.pdf]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images and files returned by tool call c1:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'text', text: 'Images and files returned by tool call c3:' },
          {
            type: 'file',
            file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
          },
        ],
      },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(openAIMockProtocol.requestProblem?.({ model: 'm', messages: converted })).toBeUndefined();
  });

  it('refuses parts OpenAI Chat cannot carry with UNSUPPORTED_CONTENT, and unread blobs with INVALID_MESSAGE', () => {
    const fileByUrl = { ...pdf, source: { type: 'url' as const, url: 'https://example.com/a.pdf' } };
    const audio = { type: 'audio', data: 'x' } as ContentPart;
    const blob = { ...png, source: { type: 'blob' as const, sha256: 'a'.repeat(64), size: 10 } };
    for (const [part, code] of [
      [fileByUrl, 'UNSUPPORTED_CONTENT'],
      [audio, 'UNSUPPORTED_CONTENT'],
      [blob, 'INVALID_MESSAGE'],
    ] as const) {
      const error = captureError(() => convertToOpenAIMessages([{ role: 'user', content: [part] }]));
      expect(CairnError.is(error, code), String(error)).toBe(true);
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

const mediaPart: fc.Arbitrary<ContentPart> = fc
  .oneof(
    fc
      .record({
        // The first bytes of each type: the mock decodes images as OpenAI does.
        image: fc.constantFrom(
          { mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { mediaType: 'image/jpeg', data: '/9j/4AAQ' },
          { mediaType: 'image/gif', data: 'R0lGODlhAQ==' },
          { mediaType: 'image/webp', data: 'UklGRhoAAABXRUJQ' },
        ),
        url: fc.option(fc.webUrl({ validSchemes: ['https'] }), { nil: undefined }),
      })
      .map(({ image: { mediaType, data }, url }) => ({
        type: 'image' as const,
        mediaType,
        source: url === undefined ? { type: 'base64' as const, data } : { type: 'url' as const, url },
      })),
    fc.record({
      type: fc.constant('file' as const),
      mediaType: fc.constant('application/pdf'),
      source: fc
        .base64String({ minLength: 4, maxLength: 16 })
        .map((data) => ({ type: 'base64' as const, data })),
      fileName: fc.option(fc.constantFrom('a.pdf', 'report.pdf'), { nil: undefined }),
    }),
  )
  .map((part) => withoutUndefined(part) as ContentPart);
const toolContent = fc.oneof(
  text,
  fc.array(
    fc.oneof(
      text.map((value) => ({ type: 'text' as const, text: value })),
      mediaPart,
    ),
    {
      minLength: 1,
      maxLength: 4,
    },
  ),
);
// A conversation of turns: a user message, or an assistant's tool calls answered by their results.
const turn = fc.oneof(
  fc
    .array(
      fc.oneof(
        text.map((value) => ({ type: 'text' as const, text: value })),
        mediaPart,
      ),
      {
        minLength: 1,
        maxLength: 3,
      },
    )
    .map((content) => ({ kind: 'user' as const, content })),
  fc
    .array(toolContent, { minLength: 1, maxLength: 3 })
    .map((results) => ({ kind: 'tools' as const, results })),
);
type Turn = typeof turn extends fc.Arbitrary<infer T> ? T : never;
const toMessages = (turns: readonly Turn[]): ModelMessage[] =>
  turns.flatMap((each, turnIndex): ModelMessage[] => {
    if (each.kind === 'user') return [{ role: 'user', content: each.content }];
    const ids = each.results.map((_, index) => `call_${turnIndex}_${index}`);
    return [
      { role: 'assistant', content: null, tool_calls: ids.map((id) => ({ ...call, id })) },
      ...each.results.map(
        (content, index): ModelMessage => ({ role: 'tool', tool_call_id: ids[index] ?? '', content }),
      ),
    ];
  });
const isMedia = (part: ContentPart) => part.type !== 'text';

describe('convertToOpenAIMessages (tool results with media, properties)', () => {
  it(
    'loses no part, keeps every tool result right after its call, and passes the API rules',
    () => {
      fc.assert(
        fc.property(fc.array(turn, { minLength: 1, maxLength: 5 }), (turns) => {
          const messages: ModelMessage[] = [{ role: 'user', content: 'go' }, ...toMessages(turns)];
          const converted = convertToOpenAIMessages(messages);
          expect(openAIMockProtocol.requestProblem?.({ model: 'm', messages: converted })).toBeUndefined();
          for (const message of converted)
            expect(OpenAIChatMessageSchema.safeParse(message).success).toBe(true);
          // Every media part, in order, is an image_url or file part of a user message.
          const sentMedia = converted.flatMap((message) =>
            message.role === 'user' && Array.isArray(message.content)
              ? message.content.filter((part) => part.type !== 'text')
              : [],
          );
          const media = messages.flatMap((message) =>
            (message.role === 'user' || message.role === 'tool') && Array.isArray(message.content)
              ? message.content.filter(isMedia)
              : [],
          );
          expect(sentMedia.map((part) => part.type)).toEqual(
            media.map((part) => (part.type === 'image' ? 'image_url' : 'file')),
          );
          // Every tool message keeps all its text, in order.
          const tools = converted.filter((message) => message.role === 'tool');
          const sourceTools = messages.filter((message) => message.role === 'tool');
          expect(tools.map((message) => message.tool_call_id)).toEqual(
            sourceTools.map((message) => message.tool_call_id),
          );
          sourceTools.forEach((message, index) => {
            const sent = String(tools[index]?.content);
            let at = 0;
            for (const part of typeof message.content === 'string' ? [] : message.content) {
              if (part.type !== 'text' || typeof part.text !== 'string') continue;
              at = sent.indexOf(part.text, at);
              expect(at).toBeGreaterThanOrEqual(0);
              at += part.text.length;
            }
          });
        }),
        { numRuns: 60 },
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
