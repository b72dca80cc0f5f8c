import { describe, expect, it } from 'vitest';
import { attachmentLabel, contentWithLabels, formatBytes } from './attachment-label.js';

const sha256 = 'a'.repeat(64);

describe('attachment labels', () => {
  it('name the part, its pixel size and its byte size', () => {
    expect(
      attachmentLabel({
        type: 'image',
        mediaType: 'image/png',
        fileName: 'shot.png',
        width: 1280,
        height: 720,
        source: { type: 'blob', sha256, size: 317_440 },
      }),
    ).toBe('[image: shot.png 1280×720, 310 KB]');
    expect(
      attachmentLabel({
        type: 'file',
        mediaType: 'application/pdf',
        source: { type: 'base64', data: 'JVBERi0x' },
      }),
    ).toBe('[file: application/pdf, 6 B]');
    expect(
      attachmentLabel({
        type: 'image',
        mediaType: 'image/png',
        source: { type: 'url', url: 'https://x.test/a.png' },
      }),
    ).toBe('[image: https://x.test/a.png]');
    expect(attachmentLabel({ type: 'audio', data: 'x' })).toBe('[audio]');
  });

  it('put each part on its own line after the text', () => {
    expect(
      contentWithLabels([
        { type: 'text', text: 'see' },
        {
          type: 'file',
          mediaType: 'text/plain',
          fileName: 'a.txt',
          source: { type: 'blob', sha256, size: 2_500_000 },
        },
      ]),
    ).toBe('see\n[file: a.txt, 2.4 MB]');
    expect(contentWithLabels('plain')).toBe('plain');
    expect(formatBytes(1023)).toBe('1023 B');
  });
});
