import { bytesToBase64, type ContentPart, type ModelMessage } from '@cairn/core';
import fc from 'fast-check';

const textArb = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const idArb = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);

const sourceArb = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 48 })
    .map((bytes) => ({ type: 'base64' as const, data: bytesToBase64(bytes) })),
  fc.record({
    type: fc.constant('blob' as const),
    sha256: fc.stringMatching(/^[0-9a-f]{64}$/),
    size: fc.integer({ min: 1, max: 30_000_000 }),
  }),
  fc.constant({ type: 'url' as const, url: 'https://example.com/media' }),
);

/** Any content part: text, an image (with or without its size), a PDF or text file, an unknown type. */
export const partArb: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: textArb }),
  fc.record(
    {
      type: fc.constant('image' as const),
      mediaType: fc.constant('image/png'),
      source: sourceArb,
      width: fc.integer({ min: 1, max: 10_000 }),
      height: fc.integer({ min: 1, max: 10_000 }),
      fileName: fc.constant('shot.png'),
    },
    { requiredKeys: ['type', 'mediaType', 'source'] },
  ),
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constantFrom('application/pdf', 'text/plain'),
    source: sourceArb,
  }),
  fc.constant({ type: 'audio', data: 'later' }),
);

const contentArb = fc.oneof(textArb, fc.array(partArb, { maxLength: 4 }));

/** Any valid ModelMessage, with text of every kind (lone surrogates included) and, for user and tool, parts. */
export const messageArb: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), content: textArb }),
  fc.record({ role: fc.constant('user' as const), content: contentArb }),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(textArb, { nil: null }),
      tool_calls: fc.array(
        fc.record({
          id: idArb,
          type: fc.constant('function' as const),
          function: fc.record({ name: idArb, arguments: fc.oneof(textArb, fc.json()) }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      reasoning: fc.array(fc.record({ text: textArb }), { maxLength: 2 }),
    },
    { requiredKeys: ['role', 'content', 'tool_calls'] },
  ),
  fc.record(
    { role: fc.constant('tool' as const), tool_call_id: idArb, content: contentArb, isError: fc.boolean() },
    { requiredKeys: ['role', 'tool_call_id', 'content'] },
  ),
);

/** `count` user messages of a few words each, every one a new object. */
export function userMessages(count: number, label = 'message'): ModelMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    role: 'user',
    content: `${label} ${index}: some words`,
  }));
}
