import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import {
  type ConversationMessage,
  isIncludedInContext,
  isToolCallMessage,
  isValidConversationMessage,
  parseConversationMessage,
} from './conversation-message.js';

const createdAt = '2026-01-18T00:00:00Z';

function parseError(value: unknown): CairnError {
  try {
    parseConversationMessage(value);
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('expected parseConversationMessage to throw');
}

describe('ConversationMessage type guards', () => {
  it('validates a minimal user message', () => {
    expect(isValidConversationMessage({ id: '1', role: 'user', content: 'Hello', createdAt })).toBe(true);
  });

  it('validates an assistant message with content null and tool_calls', () => {
    const message = {
      id: '2',
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path": "test.txt"}' },
        },
      ],
      createdAt,
    };
    expect(isValidConversationMessage(message)).toBe(true);
    expect(isToolCallMessage(parseConversationMessage(message))).toBe(true);
  });

  it('validates a tool result message', () => {
    const message = {
      id: '3',
      role: 'tool',
      content: 'file contents here',
      tool_call_id: 'call_1',
      createdAt,
    };
    expect(isValidConversationMessage(message)).toBe(true);
  });

  it('validates an assistant answer cut off by an abort (interrupted, with the text streamed so far)', () => {
    const message = {
      id: '4',
      role: 'assistant',
      content: 'The first half of',
      createdAt,
      interrupted: true,
    };
    expect(isValidConversationMessage(message)).toBe(true);
  });
});

describe('backward compatibility', () => {
  it('accepts a legacy message with only id, role, content, createdAt and partType', () => {
    const legacy = {
      id: '100',
      role: 'assistant',
      content: 'Hello world',
      createdAt: '2025-01-01T00:00:00Z',
      partType: 'content',
    };
    expect(isValidConversationMessage(legacy)).toBe(true);
  });

  it('leaves the new fields undefined on a legacy message', () => {
    const message = parseConversationMessage({ id: '101', role: 'user', content: 'Test', createdAt });
    expect(message.tool_calls).toBeUndefined();
    expect(message.tool_call_id).toBeUndefined();
    expect(message.mode).toBeUndefined();
    expect(message.includeInContext).toBeUndefined();
    expect(isIncludedInContext(message)).toBe(true);
  });

  it('keeps fields it does not know, so data written by a newer version survives', () => {
    const input = { id: '1', role: 'user', content: 'hi', createdAt, addedInV9: { keep: true } };
    const parsed = parseConversationMessage(input);
    expect(parsed).toBe(input);
    expect((parsed as Record<string, unknown>).addedInV9).toEqual({ keep: true });
  });

  it('accepts part and widget types added by a newer version, so an older reader never calls the log corrupt', () => {
    const future = {
      id: '1',
      role: 'assistant',
      content: 'x',
      createdAt,
      partType: 'compaction',
      widget: { type: 'map' },
    };
    expect(isValidConversationMessage(future)).toBe(true);
  });

  it('accepts an offset time zone and fractional seconds', () => {
    expect(
      isValidConversationMessage({
        id: '1',
        role: 'user',
        content: 'x',
        createdAt: '2026-01-18T08:00:00.123+08:00',
      }),
    ).toBe(true);
  });
});

describe('rejections', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'a tool message without tool_call_id',
      { id: '1', role: 'tool', content: 'x', createdAt },
      'tool_call_id',
    ],
    ['an unknown role', { id: '1', role: 'robot', content: 'x', createdAt }, 'role'],
    [
      'tool_calls that are not an array',
      { id: '1', role: 'assistant', content: null, tool_calls: { id: 'c' }, createdAt },
      'tool_calls',
    ],
    [
      'a tool call without a function name',
      {
        id: '1',
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }],
        createdAt,
      },
      'tool_calls[0].function.name',
    ],
    [
      'a tool call whose arguments are not a string',
      {
        id: '1',
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
        createdAt,
      },
      'tool_calls[0].function.arguments',
    ],
    [
      'duplicate tool call ids in one message',
      {
        id: '1',
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'c', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
        createdAt,
      },
      'tool_calls[1].id',
    ],
    [
      'tool_calls on a user message',
      {
        id: '1',
        role: 'user',
        content: 'x',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }],
        createdAt,
      },
      'tool_calls',
    ],
    [
      'tool_call_id on an assistant message',
      { id: '1', role: 'assistant', content: 'x', tool_call_id: 'c', createdAt },
      'tool_call_id',
    ],
    ['a user message with null content', { id: '1', role: 'user', content: null, createdAt }, 'content'],
    ['an empty id', { id: '', role: 'user', content: 'x', createdAt }, 'id'],
    [
      'a createdAt that is not ISO 8601',
      { id: '1', role: 'user', content: 'x', createdAt: 'Jan 18 2026' },
      'createdAt',
    ],
    [
      'a createdAt without a zone',
      { id: '1', role: 'user', content: 'x', createdAt: '2026-01-18T00:00:00' },
      'createdAt',
    ],
    ['an empty partType', { id: '1', role: 'user', content: 'x', createdAt, partType: '' }, 'partType'],
    ['seq 0 (seqs start at 1)', { id: '1', role: 'user', content: 'x', createdAt, seq: 0 }, 'seq'],
    [
      'reasoning on a user message',
      { id: '1', role: 'user', content: 'x', createdAt, reasoning: [{ text: 'hm' }] },
      'reasoning',
    ],
    [
      'structuredResult on an assistant message',
      { id: '1', role: 'assistant', content: 'x', createdAt, structuredResult: { a: 1 } },
      'structuredResult',
    ],
    [
      'interrupted on a user message',
      { id: '1', role: 'user', content: 'x', createdAt, interrupted: true },
      'interrupted',
    ],
    [
      'an empty errorCode',
      { id: '1', role: 'assistant', content: 'x', createdAt, errorCode: '' },
      'errorCode',
    ],
    [
      'isError on a user message',
      { id: '1', role: 'user', content: 'x', createdAt, isError: true },
      'isError',
    ],
    [
      'provider metadata JSON cannot hold',
      { id: '1', role: 'user', content: 'x', createdAt, providerMetadata: { openai: { n: 10n } } },
      'providerMetadata.openai.n',
    ],
    [
      'a structured result with NaN',
      {
        id: '1',
        role: 'tool',
        content: 'x',
        tool_call_id: 'c',
        createdAt,
        structuredResult: { n: Number.NaN },
      },
      'structuredResult',
    ],
    [
      'a widget without a type',
      { id: '1', role: 'assistant', content: 'x', createdAt, widget: { title: 't' } },
      'widget.type',
    ],
    [
      'a negative duration',
      { id: '1', role: 'tool', content: 'x', tool_call_id: 'c', createdAt, duration: -5 },
      'duration',
    ],
  ];

  it.each(cases.map(([label, value, path]) => [label, path, value] as const))(
    'rejects %s, naming %s',
    (_label, path, value) => {
      expect(isValidConversationMessage(value)).toBe(false);
      const error = parseError(value);
      expect(error.code).toBe('INVALID_MESSAGE');
      expect(error.message).toContain(`at ${path}:`);
      expect(error.details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    },
  );

  it.each([null, undefined, 'message', 42, [], [{ id: '1' }]])(
    'rejects the non-message %j at the root',
    (value) => {
      expect(isValidConversationMessage(value)).toBe(false);
      expect(parseError(value).message).toContain('at (root):');
    },
  );

  it('counts further problems in the message', () => {
    expect(parseError({ role: 'user' }).message).toMatch(/\(and \d+ more\)/);
  });

  it('treats a throwing getter as invalid input, not a crash', () => {
    const hostile = {
      id: '1',
      role: 'user',
      createdAt,
      get content(): string {
        throw new Error('boom');
      },
    };
    expect(isValidConversationMessage(hostile)).toBe(false);
    expect(parseError(hostile).code).toBe('INVALID_MESSAGE');
  });
});

describe('isToolCallMessage', () => {
  const base = { id: '1', createdAt } as const;
  it('is false for an assistant message with no or empty tool_calls', () => {
    expect(isToolCallMessage({ ...base, role: 'assistant', content: 'hi' })).toBe(false);
    expect(isToolCallMessage({ ...base, role: 'assistant', content: 'hi', tool_calls: [] })).toBe(false);
  });
  it('is false for other roles', () => {
    const tool: ConversationMessage = { ...base, role: 'tool', content: 'x', tool_call_id: 'c' };
    expect(isToolCallMessage(tool)).toBe(false);
  });
});

describe('isIncludedInContext', () => {
  const message: ConversationMessage = { id: '1', role: 'assistant', content: 'x', createdAt };
  it('is false when includeInContext is false', () => {
    expect(isIncludedInContext({ ...message, includeInContext: true })).toBe(true);
    expect(isIncludedInContext({ ...message, includeInContext: false })).toBe(false);
  });
  it('is false for display-only messages', () => {
    expect(isIncludedInContext({ ...message, partType: 'thinking' })).toBe(false);
    expect(isIncludedInContext({ ...message, partType: 'tool_execution' })).toBe(false);
    expect(isIncludedInContext({ ...message, partType: 'error' })).toBe(true);
  });
});

describe('compaction records', () => {
  const record = {
    id: 'c1',
    role: 'system',
    createdAt: '2026-11-22T10:00:00.000Z',
    content: 'Summary: the user asked for X; the assistant did Y.',
    partType: 'compaction',
    compaction: { fromSeq: 2, toSeq: 40, tokensBefore: 9000, tokensAfter: 120 },
  };

  it('are system messages with the seq range they cover', () => {
    expect(isValidConversationMessage(record)).toBe(true);
    expect(isValidConversationMessage({ ...record, role: 'user' })).toBe(false);
    expect(isValidConversationMessage({ ...record, compaction: { fromSeq: 5, toSeq: 4 } })).toBe(false);
    expect(isValidConversationMessage({ ...record, compaction: { fromSeq: 0, toSeq: 4 } })).toBe(false);
  });
});
