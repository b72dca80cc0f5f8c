import { readFileSync } from 'node:fs';
import {
  type AgentOutput,
  type AgentOutputOf,
  base64ToBytes,
  bytesToBase64,
  isAgentOutput,
  type JsonValue,
} from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClaudeCodeConverter } from './create-claude-code-converter.js';

const NOW = new Date('2026-11-27T09:00:00.000Z');

const convert = (lines: string[]): AgentOutput[] => {
  const converter = createClaudeCodeConverter({ now: () => NOW });
  return [...lines.flatMap((line) => converter.push(line)), ...converter.end()];
};

const ofType = <T extends AgentOutput['type']>(events: AgentOutput[], type: T): AgentOutputOf<T>[] =>
  events.filter((event): event is AgentOutputOf<T> => event.type === type);

// The real Claude Code 2.1.197 reading an 800×600 PNG (scripts/record-image-fixtures.mjs).
const READ_IMAGE = readFileSync(
  new URL('../../fixtures/real-image/claude-code-read-image.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '');

// The real Claude Code reading a one-page PDF.
const READ_PDF = readFileSync(
  new URL('../../fixtures/real-image/claude-code-read-pdf.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '');

// The real Claude Code given that PNG with its prompt (`--input-format stream-json --replay-user-messages`).
const INPUT_IMAGE = readFileSync(
  new URL('../../fixtures/real-image/claude-code-input-image.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '');

/** The first bytes of a PNG of `width`×`height`: what the media-type check and `imageSize` read. */
function pngBytes(width: number, height: number, extra = 0): Uint8Array {
  const bytes = new Uint8Array(33 + extra);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
}

const PNG = bytesToBase64(pngBytes(640, 480, 10));
const PDF = bytesToBase64(new TextEncoder().encode('%PDF-1.7\n%%EOF\n'));
const image = (data: string, mediaType = 'image/png'): JsonValue => ({
  type: 'image',
  source: { type: 'base64', media_type: mediaType, data },
});

const resultLine = (content: JsonValue, extra: Record<string, JsonValue> = {}): string =>
  JSON.stringify({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] },
    ...extra,
  });

const toolUse = JSON.stringify({
  type: 'assistant',
  message: {
    id: 'msg_1',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a.png' } }],
  },
});

describe('Claude Code image blocks', () => {
  it("keep the real Read of a PNG as an image part, its bytes once, and the CLI's size facts", () => {
    const events = convert(READ_IMAGE);
    expect(events.every(isAgentOutput)).toBe(true);
    const [result] = ofType(events, 'tool_result');
    const line = JSON.parse(READ_IMAGE.find((text) => text.includes('"tool_result"')) ?? '{}');
    const data = line.message.content[0].content[0].source.data as string;
    expect(result).toMatchObject({
      toolName: 'Read',
      output: '[image]',
      isError: false,
      content: [{ type: 'image', mediaType: 'image/png', width: 800, height: 600 }],
    });
    expect(result?.content?.[0]).toMatchObject({ source: { type: 'base64', data } });
    // `tool_use_result.file.base64` repeats the bytes: the event keeps them once, in the part.
    expect(result?.structured).toEqual({
      type: 'image',
      file: {
        type: 'image/png',
        originalSize: base64ToBytes(data).length,
        dimensions: { originalWidth: 800, originalHeight: 600, displayWidth: 800, displayHeight: 600 },
      },
    });
    expect(JSON.stringify(events).split(data)).toHaveLength(2);
    expect(ofType(events, 'unknown').filter((event) => JSON.stringify(event.raw).includes('image'))).toEqual(
      [],
    );
  });

  it("keep the real Read of a PDF as its text and a file part, from the line's tool_use_result", () => {
    const events = convert(READ_PDF);
    expect(events.every(isAgentOutput)).toBe(true);
    const line = JSON.parse(READ_PDF.find((text) => text.includes('"tool_result"')) ?? '{}');
    const text = line.message.content[0].content as string;
    const [result] = ofType(events, 'tool_result');
    expect(text).toMatch(/^PDF file read: .*report\.pdf \(389 bytes\)$/);
    expect(result).toMatchObject({
      toolName: 'Read',
      output: `${text}\n[file: report.pdf]`,
      content: [
        { type: 'text', text },
        {
          type: 'file',
          mediaType: 'application/pdf',
          source: { type: 'base64', data: line.tool_use_result.file.base64 },
          fileName: 'report.pdf',
        },
      ],
      structured: { type: 'pdf', file: { filePath: line.tool_use_result.file.filePath, originalSize: 389 } },
    });
    expect(result?.structured).not.toHaveProperty('file.base64');
  });

  it('keep a Read result whose PDF bytes are not a PDF as text, with the bytes in structured', () => {
    const notPdf = bytesToBase64(new TextEncoder().encode('<html>not a pdf</html>'));
    const [result] = ofType(
      convert([
        toolUse,
        resultLine('PDF file read: a.pdf (22 bytes)', {
          tool_use_result: { type: 'pdf', file: { filePath: '/w/a.pdf', base64: notPdf } },
        }),
      ]),
      'tool_result',
    );
    expect(result).not.toHaveProperty('content');
    expect(result?.output).toBe('PDF file read: a.pdf (22 bytes)');
    expect(result?.structured).toEqual({ type: 'pdf', file: { filePath: '/w/a.pdf', base64: notPdf } });
  });

  it('keep text and images in their order, the output showing each image as a placeholder', () => {
    const events = convert([
      toolUse,
      resultLine([{ type: 'text', text: 'before' }, image(PNG), { type: 'text', text: 'after' }]),
    ]);
    const [result] = ofType(events, 'tool_result');
    expect(result?.output).toBe('before\n[image]\nafter');
    expect(result?.content).toEqual([
      { type: 'text', text: 'before' },
      {
        type: 'image',
        mediaType: 'image/png',
        source: { type: 'base64', data: PNG },
        width: 640,
        height: 480,
      },
      { type: 'text', text: 'after' },
    ]);
  });

  it('make a PDF document block a file part named by its title', () => {
    const document = {
      type: 'document',
      title: 'report.pdf',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF },
    };
    const [result] = ofType(convert([toolUse, resultLine([document])]), 'tool_result');
    expect(result?.content).toEqual([
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { type: 'base64', data: PDF },
        fileName: 'report.pdf',
      },
    ]);
    expect(result?.output).toBe('[file: report.pdf]');
  });

  it('keep a text-only result as before: text output, no parts', () => {
    const [result] = ofType(
      convert([
        toolUse,
        resultLine([
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ]),
      ]),
      'tool_result',
    );
    expect(result?.output).toBe('a\nb');
    expect(result).not.toHaveProperty('content');
  });

  it.each([
    ['a URL source (no media type)', { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } }],
    ['no media type', { type: 'image', source: { type: 'base64', data: PNG } }],
    ['bytes of another type', image(PNG, 'image/jpeg')],
    ['truncated base64', image(PNG.slice(0, -1))],
    ['empty data', image('')],
    ['a media type that is not an image', image(PDF, 'application/pdf')],
    ['a block type a newer CLI adds', { type: 'audio', source: { type: 'base64', data: PNG } }],
  ])('keep an image block with %s as an unknown event, beside the result', (_name, block) => {
    const events = convert([toolUse, resultLine([image(PNG), block as JsonValue])]);
    expect(events.every(isAgentOutput)).toBe(true);
    const [result] = ofType(events, 'tool_result');
    expect(result?.content).toHaveLength(1);
    expect(ofType(events, 'unknown').map((event) => event.raw)).toContainEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [block],
    });
  });

  it('make the real user line with an image (stream-json input, replayed) one user message with parts', () => {
    const events = convert(INPUT_IMAGE);
    expect(events.every(isAgentOutput)).toBe(true);
    const line = JSON.parse(INPUT_IMAGE.find((text) => text.includes('"isReplay"')) ?? '{}');
    const data = line.message.content[1].source.data as string;
    const users = ofType(events, 'user_message');
    expect(users).toEqual([
      {
        type: 'user_message',
        timestamp: line.timestamp,
        text: 'What is in this screenshot? [scenario:describe-image]\n[image]',
        content: [
          { type: 'text', text: 'What is in this screenshot? [scenario:describe-image]' },
          {
            type: 'image',
            mediaType: 'image/png',
            source: { type: 'base64', data },
            width: 800,
            height: 600,
          },
        ],
      },
    ]);
    // The replay flag is kept, as any field the conversion does not map.
    expect(ofType(events, 'unknown').map((event) => event.raw)).toContainEqual({
      type: 'user',
      fields: { isReplay: true },
    });
  });
});

// Blocks a tool result or a user line may hold: mappable ones, and shapes that may not be (kept as unknown).
type Tagged = { block: JsonValue; image?: string };
const textBlock = fc.string().map((text): Tagged => ({ block: { type: 'text', text } }));
const imageBlock = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), fc.nat(40))
  .map(([width, height, extra]): Tagged => {
    const data = bytesToBase64(pngBytes(width, height, extra));
    return { block: image(data), image: data };
  });
const anyField = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('base64', 'url', 'image/png', 'image/jpeg', 'application/pdf', PNG, PNG.slice(1), PDF),
);
const oddBlock = fc
  .oneof(
    fc.jsonValue(),
    fc.record(
      {
        type: fc.constantFrom('image', 'document', 'text', 'tool_reference'),
        source: fc.oneof(
          anyField,
          fc.record(
            { type: anyField, media_type: anyField, data: anyField, url: anyField },
            { requiredKeys: [] },
          ),
        ),
        text: anyField,
        title: anyField,
      },
      { requiredKeys: ['type'] },
    ),
  )
  .map((block): Tagged => ({ block: block as JsonValue }));
const blocks = fc.array(fc.oneof(textBlock, imageBlock, oddBlock), { maxLength: 6 });

const imageData = (parts: readonly { type: string; source?: unknown }[]): string[] =>
  parts.flatMap((part) =>
    part.type === 'image' ? [String((part.source as { data?: unknown } | undefined)?.data)] : [],
  );

// `sub` in `list`, in order, other items between.
const isSubsequence = (sub: readonly string[], list: readonly string[]): boolean => {
  let at = 0;
  for (const item of list) if (item === sub[at]) at++;
  return at === sub.length;
};

describe('Claude Code content blocks of any shape (property)', () => {
  it('in a tool result: never throw, valid events, every image kept in order, every block kept', () => {
    fc.assert(
      fc.property(blocks, (tagged) => {
        const content = tagged.map((item) => item.block);
        const events = convert([toolUse, resultLine(content)]);
        expect(events.every(isAgentOutput)).toBe(true);
        expect(ofType(events, 'error')).toEqual([]);
        const results = ofType(events, 'tool_result');
        expect(results).toHaveLength(1);
        const parts = results[0]?.content;
        const images = tagged.flatMap((item) => (item.image === undefined ? [] : [item.image]));
        if (images.length > 0) expect(isSubsequence(images, imageData(parts ?? []))).toBe(true);
        // Nothing lost: each block is a part (or, with no media, a text block of the output) or unknown.
        const kept = ofType(events, 'unknown').flatMap((event) => {
          const raw = event.raw as { type?: unknown; content?: unknown };
          return raw.type === 'tool_result' && Array.isArray(raw.content) ? raw.content : [];
        });
        const mapped =
          parts?.length ??
          content.filter(
            (block) =>
              typeof block === 'object' &&
              block !== null &&
              !Array.isArray(block) &&
              block.type === 'text' &&
              typeof block.text === 'string',
          ).length;
        expect(mapped + kept.length).toBe(content.length);
      }),
      { numRuns: 300 },
    );
  });

  it('in a user line: never throw, valid events, every image kept in order in one user message', () => {
    fc.assert(
      fc.property(blocks, (tagged) => {
        const content = tagged.map((item) => item.block);
        const events = convert([JSON.stringify({ type: 'user', message: { role: 'user', content } })]);
        expect(events.every(isAgentOutput)).toBe(true);
        expect(ofType(events, 'error')).toEqual([]);
        const images = tagged.flatMap((item) => (item.image === undefined ? [] : [item.image]));
        const withParts = ofType(events, 'user_message').filter((event) => event.content !== undefined);
        if (images.length === 0) return;
        // A tool_result block among the odd ones makes the line a result line: its blocks go one by one.
        const hasResult = content.some(
          (block) =>
            typeof block === 'object' &&
            block !== null &&
            !Array.isArray(block) &&
            block.type === 'tool_result',
        );
        if (hasResult) return;
        expect(withParts).toHaveLength(1);
        expect(isSubsequence(images, imageData(withParts[0]?.content ?? []))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it("in a Read's tool_use_result of any shape: never throw, valid events, a real PDF kept once as a part", () => {
    const validPdf = fc.constant(PDF);
    const file = fc.record(
      {
        filePath: fc.oneof(anyField, fc.constantFrom('/w/r.pdf', 'C:\\w\\r.pdf', '')),
        base64: fc.oneof(validPdf, anyField),
      },
      { requiredKeys: [] },
    );
    const toolUseResult = fc.oneof(
      anyField,
      fc.record({ type: fc.constantFrom('pdf', 'image', 'text'), file: fc.oneof(file, anyField) }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          blocks.map((tagged) => tagged.map((item) => item.block)),
        ),
        toolUseResult,
        (content, structured) => {
          const events = convert([
            toolUse,
            resultLine(content as JsonValue, { tool_use_result: structured as JsonValue }),
          ]);
          expect(events.every(isAgentOutput)).toBe(true);
          expect(ofType(events, 'error')).toEqual([]);
          const [result] = ofType(events, 'tool_result');
          const given = structured as { type?: unknown; file?: { base64?: unknown } };
          const pdfs = (result?.content ?? []).filter(
            (part) =>
              part.type === 'file' &&
              part.mediaType === 'application/pdf' &&
              (part.source as { data?: unknown }).data === PDF,
          );
          if (given?.type === 'pdf' && given.file?.base64 === PDF) {
            expect(pdfs.length).toBeGreaterThanOrEqual(1);
            expect(result?.structured).not.toHaveProperty('file.base64');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
