import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from './conversation-message.js';
import { toModelMessage } from './to-model-message.js';
import { toOpenAIMessage } from './to-openai-message.js';

const createdAt = '2026-01-18T00:00:00Z';
const call = { id: 'toolu_1', type: 'function' as const, function: { name: 'Write', arguments: '{}' } };

describe('toModelMessage', () => {
  it('converts a plain message exactly as toOpenAIMessage does', () => {
    const user: ConversationMessage = {
      id: '1',
      role: 'user',
      content: 'Hi',
      createdAt,
      toolName: 'x',
      mode: 'chat',
    };
    expect(toModelMessage(user)).toEqual(toOpenAIMessage(user));
  });

  it('keeps reasoning with its signature and provider metadata on an assistant message', () => {
    const reasoning = [
      { text: 'The user wants a file', providerMetadata: { anthropic: { signature: 'c2ln' } } },
    ];
    const providerMetadata = { anthropic: { messageId: 'msg_01' } };
    const assistant: ConversationMessage = {
      id: '2',
      role: 'assistant',
      content: null,
      tool_calls: [call],
      reasoning,
      providerMetadata,
      createdAt,
      isCollapsed: false,
    };
    expect(toModelMessage(assistant)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [call],
      reasoning,
      providerMetadata,
    });
  });

  it('keeps isError on a failed tool result, and only when true', () => {
    const failed: ConversationMessage = {
      id: 't',
      role: 'tool',
      content: 'ENOENT',
      tool_call_id: 'toolu_1',
      isError: true,
      createdAt,
    };
    expect(toModelMessage(failed)).toEqual({
      role: 'tool',
      content: 'ENOENT',
      tool_call_id: 'toolu_1',
      isError: true,
    });
    expect(toModelMessage({ ...failed, isError: false })).toEqual({
      role: 'tool',
      content: 'ENOENT',
      tool_call_id: 'toolu_1',
    });
  });

  it('adds no key for empty reasoning or empty provider metadata', () => {
    const assistant: ConversationMessage = {
      id: '3',
      role: 'assistant',
      content: 'ok',
      reasoning: [],
      providerMetadata: {},
      createdAt,
    };
    expect(toModelMessage(assistant)).toEqual({ role: 'assistant', content: 'ok' });
  });

  it('refuses display-only messages like toOpenAIMessage', () => {
    expect(() =>
      toModelMessage({ id: '4', role: 'assistant', content: 'x', partType: 'tool_execution', createdAt }),
    ).toThrow(/display-only/);
  });
});
