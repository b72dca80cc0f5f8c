import { CairnError, type ContentPart } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { toAnthropicContentBlocks } from './to-anthropic-content-blocks.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const png = { type: 'base64' as const, data: 'iVBORw0KGgo=' };

function refusal(parts: ContentPart[]): CairnError {
  try {
    toAnthropicContentBlocks(parts, 'user message');
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('toAnthropicContentBlocks', () => {
  it('maps text, images and documents in order, leaving out blank text', () => {
    const parts: ContentPart[] = [
      { type: 'text', text: 'Compare these:' },
      { type: 'image', mediaType: 'image/png', source: png },
      { type: 'text', text: '  ' },
      { type: 'image', mediaType: 'image/jpeg', source: { type: 'url', url: 'https://example.com/a.jpg' } },
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { type: 'base64', data: b64('%PDF-1.7') },
        fileName: 'q3.pdf',
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { type: 'url', url: 'https://example.com/b.pdf' },
      },
      {
        type: 'file',
        mediaType: 'text/plain',
        source: { type: 'base64', data: b64('Ünïcode notes') },
        fileName: 'notes.txt',
      },
    ];
    expect(toAnthropicContentBlocks(parts, 'user message')).toEqual([
      { type: 'text', text: 'Compare these:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.data } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: b64('%PDF-1.7') },
        title: 'q3.pdf',
      },
      { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'Ünïcode notes' },
        title: 'notes.txt',
      },
    ]);
    expect(toAnthropicContentBlocks('plain', 'x')).toEqual([{ type: 'text', text: 'plain' }]);
    expect(toAnthropicContentBlocks(' ', 'x')).toEqual([]);
  });

  it('refuses what the API cannot take with UNSUPPORTED_CONTENT', () => {
    const bmp = refusal([{ type: 'image', mediaType: 'image/bmp', source: png }]);
    expect(bmp.code).toBe('UNSUPPORTED_CONTENT');
    expect(bmp.message).toContain('image/bmp');
    expect(refusal([{ type: 'file', mediaType: 'text/csv', source: png }]).message).toContain('text/csv');
    expect(
      refusal([
        { type: 'file', mediaType: 'text/plain', source: { type: 'url', url: 'https://example.com/a.txt' } },
      ]).message,
    ).toContain('inline only');
    expect(refusal([{ type: 'audio', data: 'x' }]).message).toContain('audio');
  });

  it('refuses a part whose bytes are still in the store, saying how to read them', () => {
    const error = refusal([
      { type: 'image', mediaType: 'image/png', source: { type: 'blob', sha256: 'a'.repeat(64), size: 10 } },
    ]);
    expect(error.code).toBe('INVALID_MESSAGE');
    expect(error.message).toContain('resolveContentParts');
  });
});
