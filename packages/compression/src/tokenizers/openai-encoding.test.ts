import { DEFAULT_ENCODING, modelToEncodingMap } from 'gpt-tokenizer/mapping';
import * as gptTokenizerModels from 'gpt-tokenizer/models';
import { describe, expect, it } from 'vitest';
import { tokenizerKindOfModel } from './create-tokenizer.js';
import { openAIEncodingForModel } from './openai-encoding.js';

describe('openAIEncodingForModel', () => {
  it('maps gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and the o-series to o200k_base', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1-nano',
      'gpt-4.5-preview',
      'gpt-5',
      'gpt-5.2-codex',
    ]) {
      expect(openAIEncodingForModel(model)).toBe('o200k_base');
    }
    for (const model of ['o1', 'o1-mini', 'o3', 'o3-mini', 'o4-mini', 'chatgpt-4o-latest', 'gpt-oss-120b']) {
      expect(openAIEncodingForModel(model)).toBe('o200k_base');
    }
  });

  it('maps gpt-4 (not 4o/4.1/4.5), gpt-3.5 and their embeddings to cl100k_base', () => {
    for (const model of [
      'gpt-4',
      'gpt-4-0613',
      'gpt-4-turbo',
      'gpt-4-32k',
      'gpt-3.5-turbo',
      'GPT-3.5-turbo-16k',
    ]) {
      expect(openAIEncodingForModel(model)).toBe('cl100k_base');
    }
    expect(openAIEncodingForModel('text-embedding-3-small')).toBe('cl100k_base');
    expect(openAIEncodingForModel('openai/gpt-4')).toBe('cl100k_base');
  });

  it('defaults models it does not know to o200k_base, the encoding of every model since gpt-4o', () => {
    expect(openAIEncodingForModel('gpt-7-turbo')).toBe('o200k_base');
  });

  it("agrees with gpt-tokenizer's own table for every OpenAI model id it knows (but GPT-2)", () => {
    const expected = (model: string) => {
      const encoding = (modelToEncodingMap as Record<string, string>)[model] ?? DEFAULT_ENCODING;
      return encoding === 'o200k_harmony' ? 'o200k_base' : encoding;
    };
    const models = Object.keys(gptTokenizerModels).filter(
      (model) => tokenizerKindOfModel(model) === 'openai' && model !== 'gpt-2',
    );
    expect(models.length).toBeGreaterThan(100);
    for (const model of models)
      expect([model, openAIEncodingForModel(model)]).toEqual([model, expected(model)]);
  });
});
