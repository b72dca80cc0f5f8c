import type { ModelMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { convertToAiSdkPrompt } from './convert-to-ai-sdk-prompt.js';

const PROVIDER = 'anthropic.messages';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const conversation: ModelMessage[] = [
  { role: 'system', content: 'Be brief.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is this?' },
      { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: PNG } },
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { type: 'url', url: 'https://example.com/a.pdf' },
        fileName: 'a.pdf',
      },
    ],
  },
  {
    role: 'assistant',
    content: 'Let me look.',
    reasoning: [
      { text: 'Mine.', providerMetadata: { [PROVIDER]: { anthropic: { signature: 'sig-1' } } } },
      { text: "Another provider's.", providerMetadata: { gemini: { thoughtSignature: 'x' } } },
      { text: 'Nobody signed this.' },
    ],
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"dot"}' } },
      { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"unterminated' } },
    ],
    providerMetadata: {
      [PROVIDER]: {
        call_1: { google: { thoughtSignature: 'ts-1' } },
        $text: { google: { thoughtSignature: 'tx' } },
      },
      gemini: { call_2: { a: 1 } },
    },
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'a red dot' },
  { role: 'tool', tool_call_id: 'call_2', content: '', isError: true },
  { role: 'user', content: 'Thanks.' },
];

describe('convertToAiSdkPrompt', () => {
  it('converts a conversation for a V4 model: file data wrapped, own replay data only, results merged', () => {
    expect(convertToAiSdkPrompt(conversation, { version: 'v4', provider: PROVIDER })).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
          {
            type: 'file',
            mediaType: 'application/pdf',
            data: { type: 'url', url: new URL('https://example.com/a.pdf') },
            filename: 'a.pdf',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Mine.', providerOptions: { anthropic: { signature: 'sig-1' } } },
          { type: 'text', text: 'Let me look.', providerOptions: { google: { thoughtSignature: 'tx' } } },
          {
            type: 'tool-call',
            toolCallId: 'call_1',
            toolName: 'lookup',
            input: { q: 'dot' },
            providerOptions: { google: { thoughtSignature: 'ts-1' } },
          },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'lookup', input: '{"unterminated' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'lookup',
            output: { type: 'text', value: 'a red dot' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'lookup',
            output: { type: 'error-text', value: 'The tool failed without a message.' },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] },
    ]);
  });

  it('gives V2 and V3 models the bytes as base64 text and URLs as URL objects', () => {
    for (const version of ['v2', 'v3'] as const) {
      const [, user] = convertToAiSdkPrompt(conversation, { version, provider: PROVIDER });
      expect(user?.content).toEqual([
        { type: 'text', text: 'What is this?' },
        { type: 'file', mediaType: 'image/png', data: PNG },
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: new URL('https://example.com/a.pdf'),
          filename: 'a.pdf',
        },
      ]);
    }
  });

  it("puts a tool result's image in each version's own shape", () => {
    const messages: ModelMessage[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'c',
        content: [
          { type: 'text', text: 'The screen:' },
          { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: PNG } },
        ],
      },
    ];
    const output = (version: 'v2' | 'v3' | 'v4') => {
      const [, tool] = convertToAiSdkPrompt(messages, { version, provider: PROVIDER });
      return (tool?.content[0] as { output?: unknown } | undefined)?.output;
    };
    const text = { type: 'text', text: 'The screen:' };
    expect(output('v2')).toEqual({
      type: 'content',
      value: [text, { type: 'media', data: PNG, mediaType: 'image/png' }],
    });
    expect(output('v3')).toEqual({
      type: 'content',
      value: [text, { type: 'image-data', data: PNG, mediaType: 'image/png' }],
    });
    expect(output('v4')).toEqual({
      type: 'content',
      value: [text, { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' }],
    });
  });

  it('refuses a part whose bytes are still a stored blob', () => {
    const blob = { type: 'blob' as const, sha256: 'a'.repeat(64), size: 3 };
    expect(() =>
      convertToAiSdkPrompt(
        [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', source: blob }] }],
        {
          version: 'v4',
          provider: PROVIDER,
        },
      ),
    ).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE' }));
  });
});
