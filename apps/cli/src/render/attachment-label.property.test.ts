import { type ContentPart, contentText } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentLabel, contentWithLabels } from './attachment-label.js';

const sha256 = fc.stringMatching(/^[0-9a-f]{64}$/);
const mediaPart: fc.Arbitrary<ContentPart> = fc.record(
  {
    type: fc.constantFrom('image' as const, 'file' as const),
    mediaType: fc.constantFrom('image/png', 'application/pdf', 'text/plain'),
    source: fc.record({
      type: fc.constant('blob' as const),
      sha256,
      size: fc.integer({ min: 1, max: 2 ** 31 }),
    }),
    fileName: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => !name.includes('\n')),
  },
  { requiredKeys: ['type', 'mediaType', 'source'] },
);
const textPart: fc.Arbitrary<ContentPart> = fc.record({
  type: fc.constant('text' as const),
  text: fc.string(),
});

describe('contentWithLabels (property)', () => {
  it('keeps every text part as contentText does and gives each other part exactly one label line', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(textPart, mediaPart), { maxLength: 8 }), (parts) => {
        const shown = contentWithLabels(parts);
        const texts = parts.filter((part) => part.type === 'text');
        expect(contentWithLabels(texts)).toBe(contentText(texts));
        for (const part of parts) {
          if (part.type !== 'text') {
            const label = attachmentLabel(part);
            expect(label).toMatch(/^\[(image|file): .*, \d+(\.\d)? (B|KB|MB)\]$/);
            expect(shown.split('\n')).toContain(label);
          }
        }
      }),
    );
  });
});
