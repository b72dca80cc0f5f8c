import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './build-anthropic-request.js';

const defaults = { model: 'claude-test', maxOutputTokens: 4096 };
const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Hi' },
];

describe('buildAnthropicRequest', () => {
  it('sends model, the default max_tokens, system and messages, and nothing unset', () => {
    expect(buildAnthropicRequest({ messages }, defaults)).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('takes max_tokens and stop sequences from the settings, leaving out sampling settings', () => {
    const body = buildAnthropicRequest(
      {
        messages,
        settings: { maxOutputTokens: 50, stopSequences: ['END'], temperature: 0.2, topP: 0.9, seed: 1 },
      },
      defaults,
    );
    expect(body).toMatchObject({ max_tokens: 50, stop_sequences: ['END'] });
    expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stop_sequences', 'system']);
  });

  it('passes providerOptions.anthropic.thinking through and ignores other namespaces', () => {
    const body = buildAnthropicRequest(
      {
        messages,
        providerOptions: {
          anthropic: { thinking: { type: 'enabled', budget_tokens: 2048 } },
          openai: { x: 1 },
        },
      },
      defaults,
    );
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('refuses a thinking option that is not an object with a type', () => {
    for (const thinking of ['on', 1, null, [], { budget_tokens: 5 }]) {
      expect(() =>
        buildAnthropicRequest({ messages, providerOptions: { anthropic: { thinking } } }, defaults),
      ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });

  it('includes the tools and tool choice', () => {
    const body = buildAnthropicRequest(
      {
        messages,
        tools: [{ name: 'f', description: 'does f', inputSchema: { type: 'object', properties: {} } }],
        toolChoice: 'required',
      },
      defaults,
    );
    expect(body.tools).toEqual([
      { name: 'f', description: 'does f', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'any' });
  });
});
