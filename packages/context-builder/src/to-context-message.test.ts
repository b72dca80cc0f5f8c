import { type ConversationMessage, fullOutputMarker } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { CREATED_AT, toolCall } from './test-support.js';
import { toContextMessage } from './to-context-message.js';

const base = { id: 'm1', createdAt: CREATED_AT, seq: 1 } as const;

describe('toContextMessage', () => {
  it('strips UI and storage fields but keeps what adapters replay', () => {
    const message: ConversationMessage = {
      ...base,
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [toolCall('c1')],
      reasoning: [{ text: 'I should read it', providerMetadata: { anthropic: { signature: 'sig' } } }],
      providerMetadata: { openai: { responseId: 'r1' } },
      partType: 'tool_call',
      mode: 'agent',
      agentId: 'ada',
      duration: 12,
    };
    expect(toContextMessage(message)).toEqual({
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [toolCall('c1')],
      reasoning: message.reasoning,
      providerMetadata: message.providerMetadata,
    });
    expect(
      toContextMessage({
        ...base,
        role: 'tool',
        tool_call_id: 'c1',
        content: 'ENOENT',
        isError: true,
        toolName: 'x',
      }),
    ).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'ENOENT', isError: true });
  });

  it('ends an answer cut off mid-stream with a note saying so', () => {
    const cut: ConversationMessage = {
      ...base,
      role: 'assistant',
      content: 'The report covers',
      interrupted: true,
    };
    expect(toContextMessage(cut)).toEqual({
      role: 'assistant',
      content:
        'The report covers\n\n[This reply was cut off here: the turn was interrupted before it was finished]',
    });
    expect(toContextMessage({ ...cut, interrupted: undefined })).toEqual({
      role: 'assistant',
      content: 'The report covers',
    });
  });

  it('sends a recorded failure as assistant text naming what failed', () => {
    const error: ConversationMessage = {
      ...base,
      role: 'assistant',
      content: 'The provider is overloaded',
      partType: 'error',
      errorCode: 'LLM_UNAVAILABLE',
    };
    expect(toContextMessage(error)).toEqual({
      role: 'assistant',
      content: '[The previous request failed: The provider is overloaded (LLM_UNAVAILABLE)]',
    });
    expect(toContextMessage({ ...error, errorCode: undefined }).content).toBe(
      '[The previous request failed: The provider is overloaded]',
    );
    expect(toContextMessage({ ...error, content: null }).content).toBe(
      '[The previous request failed (LLM_UNAVAILABLE)]',
    );
  });

  it('sends an offloaded output as its preview with the reference, added only when missing', () => {
    const ref = 'tool-results/conv-1/m1.txt';
    const offloaded: ConversationMessage = {
      ...base,
      role: 'tool',
      tool_call_id: 'c1',
      content: `line 1\nline 2${fullOutputMarker(ref)}`,
      fullOutputPath: ref,
    };
    expect(toContextMessage(offloaded).content).toBe(offloaded.content);
    expect(toContextMessage({ ...offloaded, content: 'line 1\nline 2' }).content).toBe(
      `line 1\nline 2${fullOutputMarker(ref)}`,
    );
  });
});
