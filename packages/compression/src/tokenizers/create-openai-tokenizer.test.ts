import type { ModelMessage } from '@cairn/core';
import fc from 'fast-check';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createOpenAITokenizer } from './create-openai-tokenizer.js';
import { openAIImageTokens } from './media-part-tokens.js';

const ENCODINGS = { o200k_base: o200k, cl100k_base: cl100k } as const;

// The example of OpenAI's cookbook "How to count tokens with tiktoken" (num_tokens_from_messages),
// which documents 129 prompt tokens for gpt-4 / gpt-3.5-turbo and 124 for gpt-4o / gpt-4o-mini.
// `name` is not part of ModelMessage; OpenAI-shaped messages may carry it.
const COOKBOOK_EXAMPLE = [
  {
    role: 'system',
    content:
      'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.',
  },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  {
    role: 'system',
    name: 'example_assistant',
    content: 'Things working well together will increase revenue.',
  },
  {
    role: 'system',
    name: 'example_user',
    content:
      "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
  },
  {
    role: 'system',
    name: 'example_assistant',
    content: "Let's talk later when we're less busy about how to do better.",
  },
  {
    role: 'user',
    content: "This late pivot means we don't have time to boil the ocean for the client deliverable.",
  },
] as unknown as ModelMessage[];

describe('createOpenAITokenizer', () => {
  it("counts text exactly as gpt-tokenizer's encodings do", () => {
    for (const [encoding, reference] of Object.entries(ENCODINGS)) {
      const tokenizer = createOpenAITokenizer({ encoding: encoding as keyof typeof ENCODINGS });
      expect(tokenizer.name).toBe(encoding);
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
          expect(tokenizer.countText(text)).toBe(reference.countTokens(text));
        }),
        { numRuns: 200 },
      );
      expect(tokenizer.countText('const x = { "a": [1, 2, 3] }; // 日本語 🎉')).toBe(
        reference.countTokens('const x = { "a": [1, 2, 3] }; // 日本語 🎉'),
      );
    }
  });

  it('counts special-token text as the ordinary text the API sees, without throwing', () => {
    const tokenizer = createOpenAITokenizer({ model: 'gpt-4o' });
    expect(tokenizer.countText('a <|endoftext|> b')).toBe(
      o200k.encode('a <|endoftext|> b', { disallowedSpecial: new Set() }).length,
    );
    expect(tokenizer.countText('<|endoftext|>')).toBeGreaterThan(1);
  });

  it("matches the cookbook's documented counts for its example conversation", () => {
    expect(createOpenAITokenizer({ model: 'gpt-4' }).count(COOKBOOK_EXAMPLE)).toBe(129);
    expect(createOpenAITokenizer({ model: 'gpt-3.5-turbo' }).count(COOKBOOK_EXAMPLE)).toBe(129);
    expect(createOpenAITokenizer({ model: 'gpt-4o' }).count(COOKBOOK_EXAMPLE)).toBe(124);
    expect(createOpenAITokenizer({ model: 'gpt-4o-mini' }).count(COOKBOOK_EXAMPLE)).toBe(124);
  });

  it('frames each message with 3 tokens and its role, and primes the reply with 3', () => {
    const tokenizer = createOpenAITokenizer({ encoding: 'o200k_base' });
    const text = (value: string) => o200k.countTokens(value);
    expect(tokenizer.count([])).toBe(3);
    expect(tokenizer.count([{ role: 'user', content: 'Hello there' }])).toBe(
      3 + 3 + text('user') + text('Hello there'),
    );
  });

  it('counts tool calls by function name and arguments (+3 each) and tool results by content', () => {
    const tokenizer = createOpenAITokenizer({ encoding: 'o200k_base' });
    const text = (value: string) => o200k.countTokens(value);
    const args = '{"path":"src/index.ts"}';
    const messages: ModelMessage[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: args } },
          { id: 'call_2', type: 'function', function: { name: 'list_dir', arguments: '{}' } },
        ],
        reasoning: [{ text: 'not sent to Chat Completions' }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'export {};' },
    ];
    const assistant =
      3 + text('assistant') + (text('read_file') + text(args) + 3) + (text('list_dir') + text('{}') + 3);
    const tool = 3 + text('tool') + text('export {};');
    expect(tokenizer.count(messages)).toBe(assistant + tool + 3);
  });

  it("counts each text part exactly and each image by OpenAI's tile rule", () => {
    const tokenizer = createOpenAITokenizer({ encoding: 'o200k_base' });
    const text = (value: string) => o200k.countTokens(value);
    const message: ModelMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'Compare these two screenshots.' },
        {
          type: 'image',
          mediaType: 'image/png',
          source: { type: 'url', url: 'https://x.test/a.png' },
          width: 1024,
          height: 1024,
        },
        {
          type: 'image',
          mediaType: 'image/png',
          source: { type: 'url', url: 'https://x.test/b.png' },
          width: 2048,
          height: 4096,
        },
      ],
    };
    expect(tokenizer.count([message])).toBe(
      3 + text('user') + text('Compare these two screenshots.') + 765 + openAIImageTokens(2048, 4096) + 3,
    );
  });

  it('rejects options without a model or a known encoding', () => {
    for (const options of [{}, { model: '' }, { encoding: 'p50k_base' }, null]) {
      expect(() => createOpenAITokenizer(options as never)).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});
