import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ContentPart, ModelMessage } from '@cairn/core';
import { anthropicRequestProblem } from '@cairn/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './build-anthropic-request.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

// Bytes that start like the media type says, so the mock's byte checks pass; zeros where headers
// give the pixel size, and no 0xff (JPEG markers), so no image reads as larger than the API allows.
const SIGNATURES: Record<string, number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
  'image/gif': [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  'image/webp': [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37],
};
const bytesOf = (mediaType: string) =>
  fc
    .uint8Array({ max: 0x7f, maxLength: 24 })
    .map((tail) =>
      Buffer.from([...(SIGNATURES[mediaType] ?? []), ...new Array(16).fill(0), ...tail]).toString('base64'),
    );
const urlArb = fc.webPath().map((path) => `https://files.example.com/${encodeURIComponent(path)}`);
const fileNameArb = fc.option(fc.stringMatching(/^[a-z]{1,8}\.[a-z]{3}$/), { nil: undefined });

const imageArb: fc.Arbitrary<ContentPart> = fc
  .constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp')
  .chain((mediaType) =>
    fc.record({
      type: fc.constant('image' as const),
      mediaType: fc.constant(mediaType),
      source: fc.oneof(
        bytesOf(mediaType).map((data) => ({ type: 'base64' as const, data })),
        urlArb.map((url) => ({ type: 'url' as const, url })),
      ),
    }),
  );
const fileArb: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.record(
    {
      type: fc.constant('file' as const),
      mediaType: fc.constant('application/pdf'),
      source: fc.oneof(
        bytesOf('application/pdf').map((data) => ({ type: 'base64' as const, data })),
        urlArb.map((url) => ({ type: 'url' as const, url })),
      ),
      fileName: fileNameArb,
    },
    { requiredKeys: ['type', 'mediaType', 'source'] },
  ),
  fc.record(
    {
      type: fc.constant('file' as const),
      mediaType: fc.constant('text/plain'),
      source: fc
        .string({ minLength: 1 })
        .map((text) => ({ type: 'base64' as const, data: Buffer.from(text).toString('base64') })),
      fileName: fileNameArb,
    },
    { requiredKeys: ['type', 'mediaType', 'source'] },
  ),
);
const textPartArb: fc.Arbitrary<ContentPart> = fc
  .oneof(fc.string(), fc.constantFrom('', ' ', 'look at this'))
  .map((text) => ({ type: 'text' as const, text }));
const partsArb = fc.array(fc.oneof(textPartArb, imageArb, fileArb), { maxLength: 5 });

// Well-formed exchanges: a user message with parts, then tool calls each answered with parts.
const conversationArb: fc.Arbitrary<ModelMessage[]> = fc
  .array(
    fc.record({
      user: partsArb,
      results: fc.array(fc.record({ parts: partsArb, isError: fc.boolean() }), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((exchanges) =>
    exchanges.flatMap(({ user, results }, exchange): ModelMessage[] => {
      const userMessage: ModelMessage = {
        role: 'user',
        content: [{ type: 'text', text: `question ${exchange}` }, ...user],
      };
      if (results.length === 0) return [userMessage, { role: 'assistant', content: `answer ${exchange}` }];
      const ids = results.map((_, index) => `toolu_${exchange}_${index}`);
      return [
        userMessage,
        {
          role: 'assistant',
          content: null,
          tool_calls: ids.map((id) => ({
            id,
            type: 'function',
            function: { name: 'read', arguments: '{}' },
          })),
        },
        ...results.map(
          ({ parts, isError }, index): ModelMessage => ({
            role: 'tool',
            tool_call_id: ids[index] ?? '',
            content: parts,
            isError,
          }),
        ),
      ];
    }),
  );

const isMedia = (block: { type: string }) => block.type === 'image' || block.type === 'document';
const mediaOf = (parts: ContentPart[]) =>
  parts.filter((part) => part.type === 'image' || part.type === 'file');
// What a media block carries, to compare with the part it came from.
function carried(block: ContentBlockParam): string {
  if (block.type !== 'image' && block.type !== 'document') return block.type;
  const { source } = block;
  if (source.type === 'url') return `${block.type}:url:${source.url}`;
  if (source.type === 'text') return `document:text:${Buffer.from(source.data).toString('base64')}`;
  return `${block.type}:${source.type}:${'data' in source ? source.data : ''}`;
}
function expected(part: ContentPart): string {
  const { source } = part as { source: { type: string; url?: string; data?: string } };
  const kind = part.type === 'image' ? 'image' : 'document';
  if (source.type === 'url') return `${kind}:url:${source.url}`;
  return `${kind}:${(part as { mediaType: string }).mediaType === 'text/plain' ? 'text' : 'base64'}:${source.data}`;
}

describe('convertToAnthropicMessages with images and documents', () => {
  it('sends every media part of a user message as one block, in order, in a user turn', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const { messages: turns } = convertToAnthropicMessages(messages);
        const sent = turns
          .filter((turn) => turn.role === 'user')
          .flatMap((turn) => turn.content.filter(isMedia).map(carried));
        const given = messages.flatMap((message) =>
          message.role === 'user' && Array.isArray(message.content)
            ? mediaOf(message.content).map(expected)
            : [],
        );
        expect(sent).toEqual(given);
        for (const turn of turns.filter((entry) => entry.role === 'assistant')) {
          expect(turn.content.filter(isMedia)).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("puts a tool's media parts inside its tool_result, and keeps text-only results a string", () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const results = convertToAnthropicMessages(messages).messages.flatMap((turn) =>
          turn.content.flatMap((block) => (block.type === 'tool_result' ? [block] : [])),
        );
        const tools = messages.filter((message) => message.role === 'tool');
        expect(results.map((block) => block.tool_use_id)).toEqual(tools.map((tool) => tool.tool_call_id));
        results.forEach((block, index) => {
          const parts = tools[index]?.content as ContentPart[];
          const media = mediaOf(parts);
          if (media.length === 0) {
            expect(block.content === undefined || typeof block.content === 'string').toBe(true);
            return;
          }
          if (!Array.isArray(block.content)) throw new Error('expected a block list');
          expect(block.content.filter(isMedia).map((inner) => carried(inner as ContentBlockParam))).toEqual(
            media.map(expected),
          );
          for (const inner of block.content)
            if (inner.type === 'text') expect(inner.text.trim()).not.toBe('');
        });
      }),
      { numRuns: 100 },
    );
  });

  it('builds requests, cache breakpoints included, that the mock of the Messages API accepts', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const body = buildAnthropicRequest(
          { messages: [{ role: 'system', content: 'Be brief.' }, ...messages] },
          { model: 'claude-test', maxOutputTokens: 100, promptCaching: {} },
        );
        expect(anthropicRequestProblem(body)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});
