import type { ModelMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './build-anthropic-request.js';

const defaults = { model: 'claude-test', maxOutputTokens: 4096 };
const thinking = { type: 'enabled', budget_tokens: 1024 } as const;
const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'read', arguments: '{}' } });
const signed = { text: 'I should read it.', providerMetadata: { anthropic: { signature: 'sig-1' } } };

const sentThinking = (messages: ModelMessage[]) =>
  buildAnthropicRequest({ messages, providerOptions: { anthropic: { thinking } } }, defaults).thinking;

describe('thinking in an open tool loop', () => {
  const prompt: ModelMessage = { role: 'user', content: 'Read a.txt' };
  const result = (id: string): ModelMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' });

  it('is sent when the loop began with Anthropic thinking, or no loop is open', () => {
    expect(
      sentThinking([
        prompt,
        { role: 'assistant', content: '', reasoning: [signed], tool_calls: [call('t1')] },
        result('t1'),
      ]),
    ).toEqual(thinking);
    expect(sentThinking([prompt])).toEqual(thinking);
    expect(
      sentThinking([
        prompt,
        { role: 'assistant', content: '', tool_calls: [call('t1')] },
        result('t1'),
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'Next' },
      ]),
    ).toEqual(thinking);
  });

  it('is always sent when adaptive, which may call tools without thinking', () => {
    const adaptive = { type: 'adaptive' } as const;
    const body = buildAnthropicRequest(
      {
        messages: [prompt, { role: 'assistant', content: '', tool_calls: [call('t1')] }, result('t1')],
        providerOptions: { anthropic: { thinking: adaptive } },
      },
      defaults,
    );
    expect(body.thinking).toEqual(adaptive);
  });

  it('is left out while a loop begun without thinking (another provider, or thinking off) is open', () => {
    // Reasoning from another provider carries no Anthropic signature, so it cannot start the loop.
    const foreign = { text: 'Gemini thought.', providerMetadata: { google: { thoughtSignature: 'x' } } };
    expect(
      sentThinking([
        prompt,
        { role: 'assistant', content: '', reasoning: [foreign], tool_calls: [call('t1')] },
        result('t1'),
      ]),
    ).toBeUndefined();
    // Later rounds of the same loop do not help: the API checks the loop's first assistant turn.
    expect(
      sentThinking([
        prompt,
        { role: 'assistant', content: 'Looking.', tool_calls: [call('t1')] },
        result('t1'),
        { role: 'assistant', content: '', reasoning: [signed], tool_calls: [call('t2')] },
        result('t2'),
      ]),
    ).toBeUndefined();
  });
});
