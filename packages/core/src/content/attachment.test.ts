import { describe, expect, it } from 'vitest';
import { createAttachmentPart, mediaTypeFromFileName } from './attachment.js';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 5, 0, 0, 0, 2,
  0xd0,
]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%…\n');
const text = (value: string) => new TextEncoder().encode(value);

describe('createAttachmentPart', () => {
  it('makes images image parts (with their size) and documents file parts', () => {
    expect(createAttachmentPart(PNG, { fileName: 'shot.png' })).toMatchObject({
      type: 'image',
      mediaType: 'image/png',
      width: 1280,
      height: 720,
      fileName: 'shot.png',
    });
    expect(createAttachmentPart(PDF, { fileName: 'report' })).toMatchObject({
      type: 'file',
      mediaType: 'application/pdf',
    });
    expect(createAttachmentPart(text('a,b\n1,2\n'), { fileName: 'data.csv' })).toMatchObject({
      type: 'file',
      mediaType: 'text/csv',
    });
  });

  it.each([
    ['an empty file', new Uint8Array(), { fileName: 'empty.txt' }, 'INVALID_MESSAGE', /empty/],
    [
      'bytes that are not the type',
      PNG,
      { fileName: 'x.pdf', mediaType: 'application/pdf' },
      'INVALID_MESSAGE',
      /does not match/,
    ],
    [
      'an SVG with script',
      text('<svg><script>alert(1)</script></svg>'),
      { fileName: 'x.svg' },
      'INVALID_MESSAGE',
      /script/,
    ],
    [
      'a clean SVG',
      text('<svg></svg>'),
      { fileName: 'x.svg' },
      'UNSUPPORTED_CONTENT',
      /image\/svg\+xml cannot be attached/,
    ],
    ['an unknown type', text('MZ…'), { fileName: 'tool.exe' }, 'UNSUPPORTED_CONTENT', /unknown file type/],
    [
      'a file over the limit',
      PNG,
      { fileName: 'big.png', maxBytes: 10 },
      'UNSUPPORTED_CONTENT',
      /over the 10-byte limit/,
    ],
  ] as const)('refuses %s, naming the file', (_what, bytes, options, code, message) => {
    expect(() => createAttachmentPart(bytes, options)).toThrow(
      expect.objectContaining({
        code,
        message: expect.stringMatching(new RegExp(`^${options.fileName}: .*${message.source}`)),
      }),
    );
  });

  it('reads media types from extensions, whatever their case', () => {
    expect(mediaTypeFromFileName('Shot.PNG')).toBe('image/png');
    expect(mediaTypeFromFileName('notes.md')).toBe('text/markdown');
    expect(mediaTypeFromFileName('Makefile')).toBeUndefined();
  });
});
