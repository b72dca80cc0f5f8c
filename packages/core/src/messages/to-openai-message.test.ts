import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import type { ConversationMessage } from './conversation-message.js';
import { toOpenAIMessage } from './to-openai-message.js';

const createdAt = '2026-01-18T00:00:00Z';
const call = { id: 'call_1', type: 'function' as const, function: { name: 'foo', arguments: '{}' } };

describe('toOpenAIMessage', () => {
  it('converts a user message to exactly { role, content }', () => {
    expect(toOpenAIMessage({ id: '1', role: 'user', content: 'Hi', createdAt: '...' })).toEqual({
      role: 'user',
      content: 'Hi',
    });
  });

  it('keeps tool_calls and content null on an assistant tool-call message', () => {
    expect(
      toOpenAIMessage({ id: '2', role: 'assistant', content: null, tool_calls: [call], createdAt: '...' }),
    ).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [call],
    });
  });

  it('converts a tool result to exactly { role, content, tool_call_id }', () => {
    expect(
      toOpenAIMessage({ id: '3', role: 'tool', content: 'result', tool_call_id: 'call_1', createdAt: '...' }),
    ).toEqual({
      role: 'tool',
      content: 'result',
      tool_call_id: 'call_1',
    });
  });
});

describe('toOpenAIMessage strips everything a model must not see', () => {
  const everything: ConversationMessage = {
    id: 'm1',
    role: 'assistant',
    createdAt,
    content: 'Done',
    partType: 'content',
    toolName: 'x',
    duration: 12,
    isCollapsed: true,
    widget: { type: 'confirm', title: 'Sure?' },
    mode: 'run',
    runId: 'r1',
    agentId: 'a1',
    includeInContext: true,
    seq: 7,
  };

  it('removes UI extras, context metadata and storage fields', () => {
    expect(toOpenAIMessage(everything)).toEqual({ role: 'assistant', content: 'Done' });
  });

  it('strips provider data, reasoning and tool outcome fields too: the output is sendable to OpenAI as is', () => {
    const withReplayData: ConversationMessage = {
      ...everything,
      reasoning: [{ text: 'thinking', providerMetadata: { anthropic: { signature: 'sig' } } }],
      providerMetadata: { anthropic: { responseId: 'msg_1' } },
    };
    expect(toOpenAIMessage(withReplayData)).toEqual({ role: 'assistant', content: 'Done' });
    const failed: ConversationMessage = {
      id: 't',
      role: 'tool',
      content: 'ENOENT',
      tool_call_id: 'c',
      isError: true,
      structuredResult: { code: 'ENOENT' },
      createdAt,
    };
    expect(toOpenAIMessage(failed)).toEqual({ role: 'tool', content: 'ENOENT', tool_call_id: 'c' });
  });

  it('copies tool calls without extra fields a provider may have added', () => {
    const noisy = { ...call, index: 0, function: { ...call.function, extra: true } };
    const converted = toOpenAIMessage({
      id: '2',
      role: 'assistant',
      content: null,
      tool_calls: [noisy],
      createdAt,
    });
    expect(converted).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
  });
});

describe('toOpenAIMessage normalises what a provider would reject', () => {
  it('sends an assistant message with no text and no calls as empty text', () => {
    expect(toOpenAIMessage({ id: '1', role: 'assistant', content: null, createdAt })).toEqual({
      role: 'assistant',
      content: '',
    });
    expect(toOpenAIMessage({ id: '1', role: 'assistant', createdAt })).toEqual({
      role: 'assistant',
      content: '',
    });
  });

  it('drops an empty tool_calls array', () => {
    expect(toOpenAIMessage({ id: '1', role: 'assistant', content: 'x', tool_calls: [], createdAt })).toEqual({
      role: 'assistant',
      content: 'x',
    });
  });

  it('converts a system message', () => {
    expect(toOpenAIMessage({ id: 's', role: 'system', content: 'Be brief.', createdAt })).toEqual({
      role: 'system',
      content: 'Be brief.',
    });
  });

  it('throws INVALID_MESSAGE for an unvalidated tool message without tool_call_id', () => {
    const broken = { id: 't9', role: 'tool', content: 'x', createdAt } as ConversationMessage;
    expect(() => toOpenAIMessage(broken)).toThrow(CairnError);
    expect(() => toOpenAIMessage(broken)).toThrow(/t9 has no tool_call_id/);
  });

  it.each(['thinking', 'tool_execution'])(
    'refuses a display-only %s message instead of sending it as text',
    (partType) => {
      const display: ConversationMessage = {
        id: 'd1',
        role: 'assistant',
        content: 'secret reasoning',
        partType,
        createdAt,
      };
      expect(() => toOpenAIMessage(display)).toThrow(/d1 is display-only/);
    },
  );

  it('sends a message with a part type from a newer version as ordinary content', () => {
    const future: ConversationMessage = {
      id: 'f',
      role: 'assistant',
      content: 'hi',
      partType: 'hologram',
      createdAt,
    };
    expect(toOpenAIMessage(future)).toEqual({ role: 'assistant', content: 'hi' });
  });

  it('throws INVALID_MESSAGE for an unknown role', () => {
    const broken = { id: 'x', role: 'robot', content: 'x', createdAt } as unknown as ConversationMessage;
    expect(() => toOpenAIMessage(broken)).toThrow(/unknown role "robot"/);
  });
});
