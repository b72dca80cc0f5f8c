import { describe, expect, it } from 'vitest';
import { mediaSummary } from './media-summary.js';

const png = { type: 'base64' as const, data: 'iVBORw0KGgo=' };

describe('mediaSummary', () => {
  it('names each part that is not text, with an image’s size when known', () => {
    expect(
      mediaSummary([
        { type: 'text', text: 'x' },
        { type: 'image', mediaType: 'image/png', source: png, width: 800, height: 600 },
        { type: 'image', mediaType: 'image/png', source: png },
        { type: 'file', mediaType: 'application/pdf', source: png },
        { type: 'file', mediaType: 'text/csv', source: png },
        { type: 'audio', format: 'wav' },
      ]),
    ).toBe('image 800×600, image, PDF, file (text/csv), audio');
  });

  it('is undefined for text alone', () => {
    expect(mediaSummary([{ type: 'text', text: 'x' }])).toBeUndefined();
    expect(mediaSummary([])).toBeUndefined();
  });
});
