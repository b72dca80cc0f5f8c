import {
  bytesToBase64,
  CairnError,
  type ContentPart,
  contentParts,
  contentText,
  createFilePart,
  createImagePart,
  isMediaPart,
  type MediaPart,
  type ModelMessage,
} from '@cairn/core';
import { EMPTY_TOOL_ERROR_TEXT } from '@cairn/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import type { GeminiContent, GeminiPart } from './gemini-api-types.js';
import { GEMINI_FUNCTION_RESPONSE_MEDIA_TYPES } from './gemini-input-media.js';

// A 3×2 PNG header and a tiny PDF: enough for core's part builders, which check the bytes.
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 3, 0, 0, 0, 2,
]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
const png = createImagePart(PNG, { fileName: 'shot.png' });
const pdf = createFilePart(PDF, { fileName: 'report.pdf' });
const pngData = { mimeType: 'image/png', data: bytesToBase64(PNG) };

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('convertToGeminiContents', () => {
  it('moves system messages to systemInstruction and speaks as model', () => {
    expect(
      convertToGeminiContents([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Again' },
      ]),
    ).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello!' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
    });
  });

  it('sends tool calls as functionCall parts and tool results as one user turn of functionResponses', () => {
    const { contents, systemInstruction } = convertToGeminiContents([
      { role: 'user', content: 'Read two files' },
      {
        role: 'assistant',
        content: 'Reading both.',
        tool_calls: [
          call('c1', 'read_file', '{"path":"a.txt"}'),
          call('c2', 'read_file', '{"path":"b.txt"}'),
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'A' },
      { role: 'tool', tool_call_id: 'c2', content: 'no such file', isError: true },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(systemInstruction).toBeUndefined();
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Read two files' }] },
      {
        role: 'model',
        parts: [
          { text: 'Reading both.' },
          { functionCall: { name: 'read_file', args: { path: 'a.txt' } } },
          { functionCall: { name: 'read_file', args: { path: 'b.txt' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read_file', response: { content: 'A' } } },
          { functionResponse: { name: 'read_file', response: { error: 'no such file' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('sends function responses in the order of their calls, however the results were recorded', () => {
    const { contents } = convertToGeminiContents([
      { role: 'user', content: 'Run both' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'f', '{"x":1}'), call('c2', 'f', '{"x":2}')],
      },
      // The second call finished first.
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
    ]);
    // Gemini pairs responses with calls by position: x=1 must get "one".
    expect(contents.at(-1)?.parts).toEqual([
      { functionResponse: { name: 'f', response: { content: 'one' } } },
      { functionResponse: { name: 'f', response: { content: 'two' } } },
    ]);
  });

  it('never sends empty text and merges turns of one role', () => {
    expect(
      convertToGeminiContents([
        { role: 'system', content: '' },
        { role: 'user', content: '' },
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: '' },
        { role: 'assistant', content: null, tool_calls: [call('c1', 'ls', '')] },
      ]),
    ).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'one' }, { text: 'two' }] },
        { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] },
      ],
    });
  });

  it('never sends blank text, as the Anthropic adapter', () => {
    expect(
      convertToGeminiContents([
        { role: 'system', content: ' \n' },
        { role: 'user', content: '  ' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: '\t\n' },
        { role: 'user', content: '\n' },
      ]),
    ).toEqual({ contents: [{ role: 'user', parts: [{ text: 'one' }] }] });
  });

  it('gives a failed tool result without content a short error text, and keeps an empty success', () => {
    const { contents } = convertToGeminiContents([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'f', '{}'), call('c2', 'f', '{}'), call('c3', 'f', '{}')],
      },
      { role: 'tool', tool_call_id: 'c1', content: '', isError: true },
      { role: 'tool', tool_call_id: 'c2', content: ' \n', isError: true },
      { role: 'tool', tool_call_id: 'c3', content: '' },
    ]);
    expect(contents.at(-1)?.parts).toEqual([
      { functionResponse: { name: 'f', response: { error: EMPTY_TOOL_ERROR_TEXT } } },
      { functionResponse: { name: 'f', response: { error: EMPTY_TOOL_ERROR_TEXT } } },
      { functionResponse: { name: 'f', response: { content: '' } } },
    ]);
    expect(EMPTY_TOOL_ERROR_TEXT).toBe('The tool failed without a message.');
  });

  it("replays Gemini thought signatures and drops other providers' reasoning and metadata", () => {
    const { contents } = convertToGeminiContents([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: 'Writing it.',
        reasoning: [
          { text: 'Gemini thinking', providerMetadata: { gemini: { thoughtSignature: 'sig-thought' } } },
          { text: 'Claude thinking', providerMetadata: { anthropic: { signature: 'sig-claude' } } },
          { text: '', redacted: true, providerMetadata: { anthropic: { data: 'opaque' } } },
        ],
        tool_calls: [call('c1', 'write_file', '{"path":"x"}'), call('c2', 'ls', '{}')],
        providerMetadata: {
          gemini: { thoughtSignature: 'sig-text', c1: { thoughtSignature: 'sig-call' } },
          anthropic: { c2: { thoughtSignature: 'not-for-gemini' } },
        },
      },
    ]);
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'Gemini thinking', thought: true, thoughtSignature: 'sig-thought' },
        { text: 'Writing it.', thoughtSignature: 'sig-text' },
        { functionCall: { name: 'write_file', args: { path: 'x' } }, thoughtSignature: 'sig-call' },
        { functionCall: { name: 'ls', args: {} } },
      ],
    });
  });

  it('rejects a tool result that answers no tool call', () => {
    const convert = () => convertToGeminiContents([{ role: 'tool', tool_call_id: 'ghost', content: 'x' }]);
    expect(convert).toThrow(CairnError);
    expect(convert).toThrow(
      expect.objectContaining({ code: 'INVALID_MESSAGE', details: { toolCallId: 'ghost' } }),
    );
  });

  it('sends images and files as inlineData (inline bytes) and fileData (URLs), in order with the text', () => {
    const { contents } = convertToGeminiContents([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these' },
          png,
          { type: 'text', text: ' ' },
          pdf,
          {
            type: 'image',
            mediaType: 'image/jpeg',
            source: { type: 'url', url: 'https://example.com/a.jpg' },
          },
          {
            type: 'file',
            mediaType: 'video/mp4',
            source: { type: 'url', url: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' },
          },
        ],
      },
    ]);
    expect(contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Compare these' },
          { inlineData: pngData },
          { inlineData: { mimeType: 'application/pdf', data: bytesToBase64(PDF) } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
          { fileData: { mimeType: 'video/mp4', fileUri: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' } },
        ],
      },
    ]);
  });

  it('refuses a part whose bytes are still in the store, and a part of a type Gemini has no field for', () => {
    const stored: ContentPart = {
      ...png,
      source: { type: 'blob', sha256: 'a'.repeat(64), size: PNG.length },
    };
    expect(() => convertToGeminiContents([{ role: 'user', content: [stored] }])).toThrow(
      expect.objectContaining({
        code: 'INVALID_MESSAGE',
        message: expect.stringMatching(/resolveContentParts/),
      }),
    );
    const audio = { type: 'audio', mediaType: 'audio/wav', source: { type: 'base64', data: 'AAAA' } };
    expect(() => convertToGeminiContents([{ role: 'user', content: [audio] }])).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CONTENT', message: expect.stringMatching(/audio part/) }),
    );
  });

  const screenshotTurn: ModelMessage[] = [
    { role: 'user', content: 'Look at both pages' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [call('c1', 'screenshot', '{"page":1}'), call('c2', 'screenshot', '{"page":2}')],
    },
    // The second finished first; each returns an image, the second also a video by URL.
    {
      role: 'tool',
      tool_call_id: 'c2',
      content: [
        { type: 'text', text: 'page 2' },
        png,
        { type: 'file', mediaType: 'video/mp4', source: { type: 'url', url: 'https://example.com/p2.mp4' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: [pdf] },
    { role: 'user', content: 'Which is longer?' },
  ];

  it('puts the media of tool results after the turn’s function responses, before what the user says next', () => {
    const { contents } = convertToGeminiContents(screenshotTurn);
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'screenshot', response: { content: '' } } },
        { functionResponse: { name: 'screenshot', response: { content: 'page 2' } } },
        { inlineData: pngData },
        { fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/p2.mp4' } },
        { inlineData: { mimeType: 'application/pdf', data: bytesToBase64(PDF) } },
        { text: 'Which is longer?' },
      ],
    });
  });

  it('nests inline images and PDFs in the function response when asked (Gemini 3), the rest beside', () => {
    const { contents } = convertToGeminiContents(screenshotTurn, { nestFunctionResponseMedia: true });
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'screenshot',
            response: { content: '' },
            parts: [{ inlineData: { mimeType: 'application/pdf', data: bytesToBase64(PDF) } }],
          },
        },
        {
          functionResponse: {
            name: 'screenshot',
            response: { content: 'page 2' },
            parts: [{ inlineData: pngData }],
          },
        },
        // A function response holds inline media only.
        { fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/p2.mp4' } },
        { text: 'Which is longer?' },
      ],
    });
  });

  it.each(['{"a":', '[1,2]', '"text"', 'null'])(
    'rejects tool arguments %s that are not a JSON object',
    (args) => {
      const convert = () =>
        convertToGeminiContents([{ role: 'assistant', content: null, tool_calls: [call('c1', 'f', args)] }]);
      expect(convert).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE' }));
    },
  );
});

// A valid conversation: each assistant turn's tool calls are answered by tool messages right after.
const text = fc.oneof(fc.constantFrom('', ' ', '\n\t'), fc.string({ maxLength: 12 }));
const source = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 9 })
    .map((bytes) => ({ type: 'base64' as const, data: bytesToBase64(bytes) })),
  fc.webUrl({ validSchemes: ['https'] }).map((url) => ({ type: 'url' as const, url })),
);
const media: fc.Arbitrary<MediaPart> = fc.oneof(
  fc.record({
    type: fc.constant('image' as const),
    mediaType: fc.constantFrom('image/png', 'image/webp'),
    source,
  }),
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constantFrom('application/pdf', 'text/plain', 'audio/mp3'),
    source,
  }),
);
// A message's content: a string, or parts mixing text and media.
const content: fc.Arbitrary<string | ContentPart[]> = fc.oneof(
  text,
  fc.array(
    fc.oneof(
      text.map((t): ContentPart => ({ type: 'text', text: t })),
      media,
    ),
    { maxLength: 4 },
  ),
);
const namespace = fc.constantFrom('gemini', 'anthropic', 'openai');
const metadata = fc.option(
  fc
    .record({ namespace, signature: fc.string({ minLength: 1, maxLength: 8 }) })
    .map(({ namespace, signature }) => ({
      [namespace]: { thoughtSignature: `${namespace}:${signature}` },
    })),
  { nil: undefined },
);

const conversation = fc
  .array(
    fc.oneof(
      fc.record({ kind: fc.constant('system' as const), text }),
      fc.record({ kind: fc.constant('user' as const), text: content }),
      fc.record({
        kind: fc.constant('assistant' as const),
        text,
        reasoning: fc.array(fc.record({ text, providerMetadata: metadata }), { maxLength: 2 }),
        calls: fc.array(
          fc.record({
            name: fc.constantFrom('read_file', 'ls', 'write_file'),
            args: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
            isError: fc.boolean(),
            result: content,
          }),
          { maxLength: 3 },
        ),
        messageMetadata: metadata,
      }),
    ),
    { maxLength: 10 },
  )
  .map((turns) => {
    const messages: ModelMessage[] = [];
    turns.forEach((turn, turnIndex) => {
      if (turn.kind === 'system') messages.push({ role: 'system', content: turn.text });
      if (turn.kind === 'user') messages.push({ role: 'user', content: turn.text });
      if (turn.kind !== 'assistant') return;
      const toolCalls = turn.calls.map((c, i) => call(`t${turnIndex}c${i}`, c.name, JSON.stringify(c.args)));
      if (turn.text === '' && toolCalls.length === 0) return;
      messages.push({
        role: 'assistant',
        content: turn.text === '' && toolCalls.length > 0 ? null : turn.text,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        ...(turn.reasoning.length > 0 ? { reasoning: turn.reasoning } : {}),
        ...(turn.messageMetadata ? { providerMetadata: turn.messageMetadata } : {}),
      });
      turn.calls.forEach((c, i) => {
        messages.push({
          role: 'tool',
          tool_call_id: `t${turnIndex}c${i}`,
          content: c.result,
          isError: c.isError,
        });
      });
    });
    return messages;
  });

const allParts = (messages: ModelMessage[]): GeminiPart[] =>
  convertToGeminiContents(messages).contents.flatMap((content) => content.parts);

describe('convertToGeminiContents properties', () => {
  it('alternates roles, never sends an empty turn or blank text, and does not touch its input', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const before = structuredClone(messages);
        const { contents, systemInstruction } = convertToGeminiContents(messages);
        expect(messages).toEqual(before);
        contents.forEach((content, i) => {
          expect(['user', 'model']).toContain(content.role);
          expect(content.parts.length).toBeGreaterThan(0);
          if (i > 0) expect(content.role).not.toBe(contents[i - 1]?.role);
        });
        for (const part of contents.flatMap((c) => c.parts)) {
          if (part.text !== undefined && !part.thought) expect(part.text.trim()).not.toBe('');
        }
        for (const part of systemInstruction?.parts ?? []) expect(part.text.trim()).not.toBe('');
      }),
      { numRuns: 100 },
    );
  });

  it('keeps every call and result in order, names each result after its call, and parses the arguments', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const parts = allParts(messages);
        const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
        const results = messages.filter((m) => m.role === 'tool');
        expect(parts.flatMap((p) => (p.functionCall ? [p.functionCall] : []))).toEqual(
          calls.map((c) => ({ name: c.function.name, args: JSON.parse(c.function.arguments) })),
        );
        expect(parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []))).toEqual(
          results.map((r) => ({
            name: calls.find((c) => c.id === r.tool_call_id)?.function.name,
            response: r.isError
              ? {
                  error:
                    contentText(r.content).trim() === '' ? EMPTY_TOOL_ERROR_TEXT : contentText(r.content),
                }
              : { content: contentText(r.content) },
          })),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('sends thought signatures from the gemini namespace only', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const signatures = allParts(messages).flatMap((p) =>
          p.thoughtSignature ? [p.thoughtSignature] : [],
        );
        for (const signature of signatures) expect(signature.startsWith('gemini:')).toBe(true);
        const thoughts = allParts(messages).filter((p) => p.thought);
        const geminiReasoning = messages.flatMap((m) =>
          m.role === 'assistant' ? (m.reasoning ?? []).filter((r) => r.providerMetadata?.gemini) : [],
        );
        expect(thoughts.map((p) => p.text)).toEqual(geminiReasoning.map((r) => r.text));
      }),
      { numRuns: 100 },
    );
  });

  it('sends every image and file once, in message order, as inlineData or fileData of its bytes', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const sent = allParts(messages).filter((p) => p.inlineData !== undefined || p.fileData !== undefined);
        expect(sent).toEqual(messages.flatMap((m) => mediaOf(m).map(asGemini)));
      }),
      { numRuns: 100 },
    );
  });

  it('answers each turn’s calls with as many function responses, media after them; nested or beside', () => {
    fc.assert(
      fc.property(conversation, fc.boolean(), (messages, nest) => {
        const { contents } = convertToGeminiContents(messages, { nestFunctionResponseMedia: nest });
        contents.forEach((turn, index) => {
          if (turn.role !== 'user') return;
          const calls = countOf(contents[index - 1], 'functionCall');
          expect(countOf(turn, 'functionResponse')).toBe(calls);
          const lastResponse = turn.parts.findLastIndex((p) => p.functionResponse !== undefined);
          const firstMedia = turn.parts.findIndex(
            (p) => p.inlineData !== undefined || p.fileData !== undefined,
          );
          if (lastResponse >= 0 && firstMedia >= 0) expect(firstMedia).toBeGreaterThan(lastResponse);
        });
        const toolMedia = messages.flatMap((m) => (m.role === 'tool' ? mediaOf(m) : []));
        const nestable = (part: MediaPart) =>
          nest &&
          part.source.type === 'base64' &&
          GEMINI_FUNCTION_RESPONSE_MEDIA_TYPES.includes(part.mediaType);
        const nested = contents.flatMap((c) => c.parts.flatMap((p) => p.functionResponse?.parts ?? []));
        const sorted = (parts: unknown[]) => parts.map((p) => JSON.stringify(p)).sort();
        expect(sorted(nested)).toEqual(sorted(toolMedia.filter(nestable).map(asGemini)));
        const beside = allParts(messages.filter((m) => m.role !== 'user')).filter(
          (p) => p.inlineData !== undefined || p.fileData !== undefined,
        );
        if (!nest) expect(beside).toEqual(toolMedia.map(asGemini));
      }),
      { numRuns: 100 },
    );
  });
});

function mediaOf(message: ModelMessage): MediaPart[] {
  if (message.role !== 'user' && message.role !== 'tool') return [];
  return contentParts(message.content).filter(isMediaPart);
}

function asGemini(part: MediaPart): GeminiPart {
  const { source, mediaType: mimeType } = part;
  if (source.type === 'base64') return { inlineData: { mimeType, data: source.data } };
  if (source.type === 'url') return { fileData: { mimeType, fileUri: source.url } };
  throw new Error('no blob sources here');
}

function countOf(content: GeminiContent | undefined, key: 'functionCall' | 'functionResponse'): number {
  return content?.parts.filter((part) => part[key] !== undefined).length ?? 0;
}
