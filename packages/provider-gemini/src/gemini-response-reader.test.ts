import type { AgentOutput, ModelResult } from '@cairn/core';
import { createResultAssembler } from '@cairn/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import type { GeminiPart, GeminiResponse } from './gemini-api-types.js';
import { GeminiResponseReader } from './gemini-response-reader.js';
import { geminiToolCallId } from './gemini-tool-call-ids.js';

const TURN = 3;

function read(chunks: GeminiResponse[]): { result: ModelResult; events: AgentOutput[] } {
  const events: AgentOutput[] = [];
  const assembler = createResultAssembler({ now: () => new Date(0), onEvent: (event) => events.push(event) });
  const reader = new GeminiResponseReader(assembler, TURN);
  for (const chunk of chunks) reader.read(chunk);
  reader.end();
  return { result: assembler.complete(), events };
}

const chunk = (parts: GeminiPart[], finishReason?: string): GeminiResponse => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
  responseId: 'resp-1',
  modelVersion: 'gemini-test-001',
});

describe('GeminiResponseReader', () => {
  it('assembles text over chunks, with usage, finish and the response identity', () => {
    const { result, events } = read([
      chunk([{ text: 'Hel' }]),
      {
        ...chunk([{ text: 'lo' }], 'STOP'),
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
      },
    ]);
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello' },
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
      finishReason: 'stop',
      rawFinishReason: 'STOP',
      responseId: 'resp-1',
      modelId: 'gemini-test-001',
    });
    expect(events.map((event) => event.type)).toEqual([
      'text_delta',
      'text_delta',
      'text',
      'usage',
      'finish',
    ]);
    expect(events.every((event) => event.messageId === 'resp-1')).toBe(true);
  });

  it('keeps thoughts with their signature, closes blocks as the kind of part changes, and ids function calls', () => {
    const args = { path: 'a.txt' };
    const { result, events } = read([
      chunk([{ text: 'Plan', thought: true }]),
      chunk([{ text: 'ning.', thought: true, thoughtSignature: 'sig-thought' }]),
      chunk([{ text: 'Reading.' }]),
      chunk(
        [
          { functionCall: { name: 'read_file', args }, thoughtSignature: 'sig-call' },
          { functionCall: { name: 'ls' } },
        ],
        'STOP',
      ),
    ]);
    const first = geminiToolCallId({ name: 'read_file', args }, { turn: TURN, position: 0 });
    const second = geminiToolCallId({ name: 'ls' }, { turn: TURN, position: 1 });
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [
        { id: first, type: 'function', function: { name: 'read_file', arguments: JSON.stringify(args) } },
        { id: second, type: 'function', function: { name: 'ls', arguments: '{}' } },
      ],
      reasoning: [{ text: 'Planning.', providerMetadata: { gemini: { thoughtSignature: 'sig-thought' } } }],
      providerMetadata: { gemini: { [first]: { thoughtSignature: 'sig-call' } } },
    });
    expect(result.finishReason).toBe('tool_calls');
    expect(result.rawFinishReason).toBe('STOP');
    expect(events.map((event) => event.type)).toEqual([
      'reasoning_delta',
      'reasoning_delta',
      'reasoning',
      'text_delta',
      'text',
      'tool_input_delta',
      'tool_use',
      'tool_input_delta',
      'tool_use',
      'finish',
    ]);
    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({
      id: first,
      toolName: 'read_file',
      input: args,
      providerMetadata: { gemini: { thoughtSignature: 'sig-call' } },
    });
  });

  it('keeps a signature on the answer text, even on an empty part', () => {
    const { result } = read([
      chunk([{ text: 'Done.' }]),
      chunk([{ text: '', thoughtSignature: 'sig-text' }], 'STOP'),
    ]);
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Done.',
      providerMetadata: { gemini: { thoughtSignature: 'sig-text' } },
    });
  });

  it('reports a blocked prompt as content_filter with the block reason', () => {
    const { result } = read([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }]);
    expect(result.finishReason).toBe('content_filter');
    expect(result.rawFinishReason).toBe('PROHIBITED_CONTENT');
    expect(result.message).toEqual({ role: 'assistant', content: '' });
  });

  it('passes parts it does not know on as unknown events and keeps reading', () => {
    const code = { executableCode: { language: 'PYTHON', code: 'print(1)' } } as unknown as GeminiPart;
    const { result, events } = read([chunk([code, { text: 'Done.' }], 'STOP')]);
    expect(result.message).toEqual({ role: 'assistant', content: 'Done.' });
    expect(events.filter((event) => event.type === 'unknown')).toMatchObject([{ raw: code }]);
  });

  it('maps MAX_TOKENS to length', () => {
    expect(read([chunk([{ text: 'cut' }], 'MAX_TOKENS')]).result.finishReason).toBe('length');
  });
});

// A realistic reply: thoughts, then answer text, then function calls, each part possibly signed.
const signature = fc.option(fc.stringMatching(/^[A-Za-z0-9+/]{4,12}={0,2}$/), { nil: undefined });
const reply = fc.record({
  thoughts: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 3 }),
  thoughtSignature: signature,
  texts: fc.array(fc.oneof(fc.constantFrom(' ', '\n'), fc.string({ minLength: 1, maxLength: 10 })), {
    maxLength: 3,
  }),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom('read_file', 'ls'),
      args: fc.dictionary(fc.constantFrom('path', 'n', 'flag'), fc.jsonValue({ maxDepth: 1 })),
      thoughtSignature: signature,
    }),
    { maxLength: 3 },
  ),
});

type Reply = typeof reply extends fc.Arbitrary<infer T> ? T : never;

function partsOf({ thoughts, thoughtSignature, texts, calls }: Reply): GeminiPart[] {
  return [
    ...thoughts.map((text, i) => ({
      text,
      thought: true,
      ...(i === thoughts.length - 1 && thoughtSignature ? { thoughtSignature } : {}),
    })),
    ...texts.map((text) => ({ text })),
    ...calls.map(({ name, args, thoughtSignature }) => ({
      functionCall: { name, args },
      ...(thoughtSignature ? { thoughtSignature } : {}),
    })),
  ];
}

// Cuts every text into pieces and groups the parts into chunks, as a stream may deliver them.
const chunked = (parts: GeminiPart[]) =>
  fc.array(fc.nat({ max: 12 }), { minLength: parts.length * 2, maxLength: parts.length * 2 }).map((cuts) => {
    const pieces: GeminiPart[] = parts.flatMap((part, i) => {
      if (part.text === undefined || part.text.length < 2) return [part];
      const at = 1 + ((cuts[2 * i] ?? 0) % (part.text.length - 1));
      const { thoughtSignature, ...rest } = part;
      return [
        { ...rest, text: part.text.slice(0, at) },
        { ...rest, text: part.text.slice(at), ...(thoughtSignature ? { thoughtSignature } : {}) },
      ];
    });
    const chunks: GeminiPart[][] = [[]];
    pieces.forEach((piece, i) => {
      chunks.at(-1)?.push(piece);
      if ((cuts[i] ?? 0) % 2 === 0 && i < pieces.length - 1) chunks.push([]);
    });
    return chunks;
  });

describe('GeminiResponseReader properties', () => {
  it('gives the same result for a whole response and for any chunking of it', () => {
    fc.assert(
      fc.property(
        reply.chain((r) => fc.tuple(fc.constant(partsOf(r)), chunked(partsOf(r)))),
        ([parts, chunks]) => {
          const whole = read([chunk(parts, 'STOP')]).result;
          const streamed = read(
            chunks.map((p, i) => chunk(p, i === chunks.length - 1 ? 'STOP' : undefined)),
          ).result;
          expect(streamed).toEqual(whole);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('converts the read message back to the parts Gemini sent (runs merged, signatures in place)', () => {
    fc.assert(
      fc.property(reply, (r) => {
        const { message } = read([chunk(partsOf(r), 'STOP')]).result;
        const [content] = convertToGeminiContents([message]).contents;
        const thought = r.thoughts.join('');
        const text = r.texts.join('');
        expect(content?.parts ?? []).toEqual([
          ...(thought && r.thoughtSignature
            ? [{ text: thought, thought: true, thoughtSignature: r.thoughtSignature }]
            : []),
          // Blank text is never sent back.
          ...(text.trim() ? [{ text }] : []),
          ...r.calls.map(({ name, args, thoughtSignature }) => ({
            functionCall: { name, args: JSON.parse(JSON.stringify(args)) },
            ...(thoughtSignature ? { thoughtSignature } : {}),
          })),
        ]);
      }),
      { numRuns: 100 },
    );
  });
});
