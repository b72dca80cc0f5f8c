import { describe, expect, it } from 'vitest';
import {
  defaultOpenAIInputMediaTypes,
  OPENAI_VISION_MEDIA_TYPES,
  resolveOpenAIInputMediaTypes,
} from './openai-input-media-types.js';

describe('defaultOpenAIInputMediaTypes', () => {
  it('gives images and PDFs to OpenAI vision models, routed or not', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4o-2024-08-06',
      'chatgpt-4o-latest',
      'gpt-4.1',
      'gpt-4.1-nano',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5.1',
      'o1',
      'o3',
      'o4-mini',
      'openai/gpt-4o',
      'GPT-4.1-MINI',
    ]) {
      expect(defaultOpenAIInputMediaTypes(model), model).toEqual(OPENAI_VISION_MEDIA_TYPES);
    }
  });

  it('assumes text only for text-only and audio models and for unknown ones', () => {
    for (const model of [
      'gpt-3.5-turbo',
      'gpt-4',
      'o1-mini',
      'o3-mini',
      'gpt-4o-audio-preview',
      'gpt-4o-realtime-preview',
      'gpt-4o-mini-transcribe',
      'qwen3:8b',
      'llava',
      'gpt-test',
      'gpt-50x',
    ]) {
      expect(defaultOpenAIInputMediaTypes(model), model).toEqual([]);
    }
  });
});

describe('resolveOpenAIInputMediaTypes', () => {
  it('takes the option over the default, and refuses an entry that is not a media type', () => {
    expect(resolveOpenAIInputMediaTypes('gpt-4o', undefined)).toEqual(OPENAI_VISION_MEDIA_TYPES);
    expect(resolveOpenAIInputMediaTypes('gpt-4o', [])).toEqual([]);
    expect(resolveOpenAIInputMediaTypes('llava', ['image/*', 'application/pdf'])).toEqual([
      'image/*',
      'application/pdf',
    ]);
    for (const entry of ['png', 'image/', 'Image/PNG', '*/*', '']) {
      expect(() => resolveOpenAIInputMediaTypes('llava', [entry]), entry).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});
