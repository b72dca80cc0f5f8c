import { describe, expect, it } from 'vitest';
import { createTokenizer, tokenizerKindOfModel } from './create-tokenizer.js';

describe('tokenizerKindOfModel', () => {
  it('routes OpenAI, Claude and Gemini model ids, with or without a vendor prefix', () => {
    const expected = {
      'gpt-4o': 'openai',
      'gpt-5-mini': 'openai',
      o1: 'openai',
      'o3-mini': 'openai',
      'o4-mini-2025-04-16': 'openai',
      'chatgpt-4o-latest': 'openai',
      'openai/gpt-4.1': 'openai',
      'claude-sonnet-4-5': 'anthropic',
      'Claude-3-5-Haiku-Latest': 'anthropic',
      'anthropic/claude-opus-4-1': 'anthropic',
      'us.anthropic.claude-3-7-sonnet-20250219-v1:0': 'anthropic',
      'gemini-2.5-pro': 'gemini',
      'models/gemini-2.0-flash': 'gemini',
      'llama-3.3-70b': 'generic',
      'mistral-large': 'generic',
      opus: 'generic',
    };
    for (const [model, kind] of Object.entries(expected))
      expect([model, tokenizerKindOfModel(model)]).toEqual([model, kind]);
  });
});

describe('createTokenizer', () => {
  it('gives OpenAI models their exact encoding and other models a calibrated estimate', () => {
    expect(createTokenizer('gpt-4o').name).toBe('o200k_base');
    expect(createTokenizer('gpt-4-turbo').name).toBe('cl100k_base');
    expect(createTokenizer('openai/gpt-3.5-turbo').name).toBe('cl100k_base');
    expect(createTokenizer('claude-sonnet-4-5').name).toBe('estimate:anthropic');
    expect(createTokenizer('gemini-2.5-flash').name).toBe('estimate:gemini');
    expect(createTokenizer('qwen3-coder').name).toBe('estimate:generic');
  });

  it('lets a known provider decide, and routes other providers by model', () => {
    expect(createTokenizer({ provider: 'openai', model: 'my-fine-tune' }).name).toBe('o200k_base');
    expect(createTokenizer({ provider: 'anthropic', model: 'custom' }).name).toBe('estimate:anthropic');
    expect(createTokenizer({ provider: 'claude-code', model: 'opus' }).name).toBe('estimate:anthropic');
    expect(createTokenizer({ provider: 'gemini-cli', model: 'auto' }).name).toBe('estimate:gemini');
    expect(createTokenizer({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4' }).name).toBe(
      'estimate:anthropic',
    );
    expect(createTokenizer({ provider: 'constructor', model: 'gemini-2.5-pro' }).name).toBe(
      'estimate:gemini',
    );
  });

  it('gives every call its own calibration', () => {
    const first = createTokenizer('claude-sonnet-4-5');
    first.calibrate([], 10_000);
    expect(createTokenizer('claude-sonnet-4-5').count([])).toBeLessThan(10_000);
  });

  it('rejects a missing model', () => {
    for (const model of ['', { provider: 'openai' }, undefined, 42]) {
      expect(() => createTokenizer(model as never)).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});
