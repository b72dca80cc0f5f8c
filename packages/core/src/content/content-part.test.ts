import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import {
  conversationMessageJsonSchema,
  isValidConversationMessage,
  parseConversationMessage,
  toModelMessage,
  toOpenAIMessage,
} from '../index.js';
import { base64ByteLength, base64ToBytes, bytesToBase64 } from './base64.js';
import { contentText } from './content-text.js';
import { createContentPart, createImagePart } from './create-part.js';
import { assertMediaBytes, imageSize, sniffMediaType } from './media-bytes.js';

// A 3×2 PNG header (signature, IHDR length, type, width, height), enough for the sniffers.
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 3, 0, 0, 0, 2,
]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%…\n');
const createdAt = '2026-11-27T05:00:00.000Z';

describe('content parts', () => {
  it('keeps string content valid, and takes parts on user and tool messages', () => {
    const image = createImagePart(PNG, { fileName: 'chart.png' });
    expect(image).toMatchObject({
      type: 'image',
      mediaType: 'image/png',
      width: 3,
      height: 2,
      fileName: 'chart.png',
    });
    const user = {
      id: 'u1',
      role: 'user',
      createdAt,
      content: [
        { type: 'text', text: 'What is this?' },
        image,
        createContentPart(PDF, { fileName: 'r.pdf' }),
      ],
    };
    expect(isValidConversationMessage(user)).toBe(true);
    expect(isValidConversationMessage({ id: 'u0', role: 'user', createdAt, content: 'plain' })).toBe(true);
    const tool = { id: 't1', role: 'tool', createdAt, tool_call_id: 'c1', content: [image] };
    expect(isValidConversationMessage(tool)).toBe(true);
  });

  it('refuses media on system and assistant messages, naming the part', () => {
    const image = createImagePart(PNG);
    for (const role of ['system', 'assistant']) {
      expect(() => parseConversationMessage({ id: 'm', role, createdAt, content: [image] })).toThrow(
        /content\.0\.type|text parts only/,
      );
    }
    expect(
      isValidConversationMessage({
        id: 'a',
        role: 'assistant',
        createdAt,
        content: [{ type: 'text', text: 'ok' }],
      }),
    ).toBe(true);
  });

  it('refuses truncated base64, empty data and bad media types; keeps parts of unknown types', () => {
    const bad = [
      { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBORw0KGgo' } },
      { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: '' } },
      { type: 'image', mediaType: 'PNG', source: { type: 'base64', data: 'AAAA' } },
      { type: 'file', mediaType: 'application/pdf', source: { type: 'url', url: 'file:///etc/passwd' } },
      { type: 'image', mediaType: 'image/png', source: { type: 'blob', sha256: 'abc', size: 3 } },
    ];
    for (const part of bad) {
      expect(
        isValidConversationMessage({ id: 'u', role: 'user', createdAt, content: [part] }),
        JSON.stringify(part),
      ).toBe(false);
    }
    const audio = {
      type: 'audio',
      mediaType: 'audio/wav',
      source: { type: 'blob', sha256: 'a'.repeat(64), size: 9 },
    };
    expect(parseConversationMessage({ id: 'u', role: 'user', createdAt, content: [audio] }).content).toEqual([
      audio,
    ]);
  });

  it('checks bytes against their media type: mismatch, empty file, SVG with script', () => {
    expect(sniffMediaType(PNG)).toBe('image/png');
    expect(sniffMediaType(PDF)).toBe('application/pdf');
    expect(() => assertMediaBytes('application/pdf', PNG, 'x')).toThrow(
      /does not match the bytes \(image\/png\)/,
    );
    expect(() => assertMediaBytes('image/jpeg', PDF, 'x')).toThrow(/does not match/);
    expect(() => assertMediaBytes('image/png', new Uint8Array(), 'x')).toThrow(/empty/);
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(() => assertMediaBytes('image/svg+xml', svg, 'x')).toThrow(CairnError);
    expect(() => assertMediaBytes('text/plain', new TextEncoder().encode('hi'), 'x')).not.toThrow();
    expect(imageSize(PNG)).toEqual({ width: 3, height: 2 });
  });

  it('round-trips base64 and counts its bytes without decoding', () => {
    for (const length of [1, 2, 3, 4, 100, 70_000]) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 7) % 256);
      const data = bytesToBase64(bytes);
      expect(base64ByteLength(data)).toBe(length);
      expect([...base64ToBytes(data)]).toEqual([...bytes]);
    }
  });

  it('maps parts to OpenAI Chat: image_url and file data URLs; blobs must be read first', () => {
    const image = createImagePart(PNG);
    const pdf = createContentPart(PDF, { fileName: 'r.pdf' });
    const message = parseConversationMessage({
      id: 'u',
      role: 'user',
      createdAt,
      content: [{ type: 'text', text: 'look' }, image, pdf],
    });
    expect(toOpenAIMessage(message)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${bytesToBase64(PNG)}` } },
        {
          type: 'file',
          file: { filename: 'r.pdf', file_data: `data:application/pdf;base64,${bytesToBase64(PDF)}` },
        },
      ],
    });
    expect(toModelMessage(message).content).toEqual(message.content);
    const stored = {
      ...message,
      content: [{ ...image, source: { type: 'blob', sha256: 'b'.repeat(64), size: 24 } }],
    };
    expect(() => toOpenAIMessage(parseConversationMessage(stored))).toThrow(/resolveContentParts/);
    const toolImage = parseConversationMessage({
      id: 't',
      role: 'tool',
      createdAt,
      tool_call_id: 'c',
      content: [image],
    });
    expect(() => toOpenAIMessage(toolImage)).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CONTENT' }),
    );
  });

  it('gives the text of parts, with placeholders when asked', () => {
    const content = [
      { type: 'text', text: 'a' },
      createImagePart(PNG, { fileName: 'p.png' }),
      { type: 'text', text: 'b' },
    ];
    expect(contentText(content)).toBe('a\nb');
    expect(contentText(content, { placeholders: true })).toBe('a\n[image: p.png]\nb');
  });

  it('describes parts and their role rules in the JSON Schema export', () => {
    const schema = JSON.stringify(conversationMessageJsonSchema());
    expect(schema).toContain('"image"');
    expect(schema).toContain('"blob"');
    expect(schema).toContain('"const":"text"');
  });
});
