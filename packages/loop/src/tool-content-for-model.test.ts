import { type ContentPart, isMediaPart } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolContentForModel } from './tool-content-for-model.js';

const png = {
  type: 'image',
  mediaType: 'image/png',
  fileName: 'page.png',
  source: { type: 'base64', data: 'iVBORw0KGgo=' },
};
const audio = { type: 'file', mediaType: 'audio/wav', source: { type: 'base64', data: 'UklGRg==' } };

describe('toolContentForModel', () => {
  it('names each part the model cannot take, in place, and keeps the rest', () => {
    const content: ContentPart[] = [{ type: 'text', text: 'Here:' }, png, audio, { type: 'video', uri: 'x' }];
    expect(toolContentForModel(content, ['image/*'])).toEqual([
      { type: 'text', text: 'Here:' },
      png,
      { type: 'text', text: '[file] (not shown: this model cannot take audio/wav)' },
      { type: 'text', text: '[video] (not shown: this model cannot take a video part)' },
    ]);
    // A text-only model (no inputMediaTypes).
    expect(toolContentForModel([png])).toEqual([
      { type: 'text', text: '[image: page.png] (not shown: this model cannot take image/png)' },
    ]);
  });

  it('returns text, and content the model takes whole, as the same value', () => {
    const parts: ContentPart[] = [{ type: 'text', text: 'a' }, png];
    expect(toolContentForModel(parts, ['image/png'])).toBe(parts);
    expect(toolContentForModel('plain text', [])).toBe('plain text');
  });

  it('never sends a media type the model does not take, and keeps one entry per part', () => {
    const part = fc.oneof(
      fc.string().map((text): ContentPart => ({ type: 'text', text })),
      fc
        .constantFrom('image/png', 'image/jpeg', 'application/pdf', 'audio/wav', 'text/csv')
        .chain((mediaType) =>
          fc
            .constantFrom('image', 'file')
            .map(
              (type): ContentPart =>
                ({ type, mediaType, source: { type: 'base64', data: 'AAAA' } }) as ContentPart,
            ),
        ),
      fc.constantFrom('video', 'audio').map((type): ContentPart => ({ type })),
    );
    const accepted = fc.subarray(['image/*', 'image/png', 'application/pdf', 'audio/wav']);
    fc.assert(
      fc.property(fc.array(part), accepted, (content, types) => {
        const sent = toolContentForModel(content, types) as ContentPart[];
        expect(sent).toHaveLength(content.length);
        for (const [index, each] of sent.entries()) {
          if (each.type === 'text') continue;
          expect(each).toBe(content[index]);
          if (!isMediaPart(each)) throw new Error(`sent a ${each.type} part`);
          const { mediaType } = each;
          expect(
            types.some(
              (type) => type === mediaType || (type === 'image/*' && mediaType.startsWith('image/')),
            ),
          ).toBe(true);
        }
      }),
    );
  });
});
