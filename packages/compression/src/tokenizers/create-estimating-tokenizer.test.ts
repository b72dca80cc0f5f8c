import type { ModelMessage } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEstimatingTokenizer } from './create-estimating-tokenizer.js';
import { estimateMessageTokens } from './estimate-message-tokens.js';
import { ESTIMATE_FAMILIES, ESTIMATE_PROFILES } from './estimate-profile.js';
import { estimateTextTokens } from './estimate-text-tokens.js';
import { anthropicImageTokens, geminiImageTokens, PDF_PAGE_TOKENS } from './media-part-tokens.js';
import { messageArb } from './test-support.js';

const familyArb = fc.constantFrom(...ESTIMATE_FAMILIES);
const messagesArb = fc.array(messageArb, { maxLength: 8 });

describe('createEstimatingTokenizer', () => {
  it('is named after its family and rounds countText up', () => {
    const tokenizer = createEstimatingTokenizer({ family: 'anthropic' });
    expect(tokenizer.name).toBe('estimate:anthropic');
    expect(tokenizer.countText('hello')).toBe(Math.ceil(ESTIMATE_PROFILES.anthropic.word));
    expect(tokenizer.countText('')).toBe(0);
  });

  it('counts text, tool calls and reasoning of each message plus its framing, and the request framing', () => {
    const profile = ESTIMATE_PROFILES.gemini;
    const text = (value: string) => estimateTextTokens(value, profile);
    const assistant: ModelMessage = {
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
      ],
      reasoning: [{ text: 'The user wants the file.' }],
    };
    const expected = Math.ceil(
      profile.message +
        text('Reading it.') +
        profile.toolCall +
        text('read_file') +
        text('{"path":"a.ts"}') +
        text('The user wants the file.'),
    );
    expect(estimateMessageTokens(assistant, profile)).toBe(expected);
    expect(createEstimatingTokenizer({ family: 'gemini' }).count([assistant])).toBe(
      expected + profile.request,
    );
  });

  it("counts an image and a PDF by the family's provider rules, on top of the text", () => {
    const text = 'What is in these?';
    const withMedia: ModelMessage = {
      role: 'user',
      content: [
        { type: 'text', text },
        {
          type: 'image',
          mediaType: 'image/png',
          source: { type: 'url', url: 'https://x.test/a.png' },
          width: 1000,
          height: 500,
        },
        {
          type: 'file',
          mediaType: 'application/pdf',
          source: { type: 'blob', sha256: 'b'.repeat(64), size: 90_000 },
        },
      ],
    };
    const textOnly: ModelMessage = { role: 'user', content: text };
    const expected = {
      anthropic: anthropicImageTokens(1000, 500),
      generic: anthropicImageTokens(1000, 500),
      gemini: geminiImageTokens(1000, 500),
    };
    for (const family of ESTIMATE_FAMILIES) {
      const profile = ESTIMATE_PROFILES[family];
      const pdf = 2 * PDF_PAGE_TOKENS[profile.media];
      expect(estimateMessageTokens(withMedia, profile) - estimateMessageTokens(textOnly, profile)).toBe(
        expected[family] + pdf,
      );
    }
  });

  it('never throws and never returns a negative or non-integer count, for any messages', () => {
    fc.assert(
      fc.property(familyArb, messagesArb, (family, messages) => {
        const count = createEstimatingTokenizer({ family }).count(messages);
        expect(Number.isInteger(count)).toBe(true);
        expect(count).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 100 },
    );
  });

  it('never decreases when a message is added', () => {
    fc.assert(
      fc.property(familyArb, messagesArb, messageArb, fc.nat(), (family, messages, added, at) => {
        const tokenizer = createEstimatingTokenizer({ family });
        const position = at % (messages.length + 1);
        const longer = [...messages.slice(0, position), added, ...messages.slice(position)];
        expect(tokenizer.count(longer)).toBeGreaterThan(tokenizer.count(messages));
      }),
      { numRuns: 100 },
    );
  });

  it('is additive: count(a ++ b) = count(a) + count(b) - the request framing', () => {
    fc.assert(
      fc.property(familyArb, messagesArb, messagesArb, (family, a, b) => {
        const tokenizer = createEstimatingTokenizer({ family });
        const request = ESTIMATE_PROFILES[family].request;
        expect(tokenizer.count([...a, ...b])).toBe(tokenizer.count(a) + tokenizer.count(b) - request);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects an unknown family', () => {
    for (const options of [{ family: 'llama' }, {}, null]) {
      expect(() => createEstimatingTokenizer(options as never)).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});
