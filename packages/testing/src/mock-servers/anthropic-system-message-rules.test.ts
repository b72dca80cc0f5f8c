import { describe, expect, it } from 'vitest';
import { anthropicRequestProblem } from './anthropic-request-rules.js';

const problem = (model: string, messages: unknown[]) =>
  anthropicRequestProblem({ model, max_tokens: 1024, system: 'You are Claude Code.', messages });

describe('anthropicRequestProblem: mid-conversation system messages', () => {
  // The shape Claude Code 2.1.197 sends: a system-reminder message right after the first prompt.
  const claudeCode = [
    { role: 'user', content: [{ type: 'text', text: 'Create hello.txt. [scenario:main]' }] },
    { role: 'system', content: [{ type: 'text', text: '<system-reminder>Tools: Write</system-reminder>' }] },
  ];

  it("accepts Claude Code's role: system message on Opus 4.8, later models and unknown ids", () => {
    expect(problem('claude-opus-4-8', claudeCode)).toBeUndefined();
    expect(problem('claude-opus-5', claudeCode)).toBeUndefined();
    expect(problem('mock-model', claudeCode)).toBeUndefined();
    expect(
      problem('claude-opus-4-8', [
        ...claudeCode,
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'next' },
      ]),
    ).toBeUndefined();
  });

  it('refuses it on models before Opus 4.8', () => {
    for (const model of [
      'claude-sonnet-4-5-20250929',
      'claude-opus-4-1',
      'claude-sonnet-4-20250514',
      'claude-3-7-sonnet-20250219',
    ]) {
      expect(problem(model, claudeCode)).toBe(
        "messages.1.role: role 'system' is not supported on this model",
      );
    }
  });

  it('refuses it anywhere but right after a user message, and with other than text', () => {
    expect(problem('claude-opus-4-8', [claudeCode[1], claudeCode[0]])).toContain(
      'must immediately follow a `user` message',
    );
    expect(
      problem('claude-opus-4-8', [claudeCode[0], { role: 'assistant', content: 'ok' }, claudeCode[1]]),
    ).toContain('must immediately follow');
    expect(problem('claude-opus-4-8', [claudeCode[0], { role: 'system', content: '' }])).toContain(
      'non-empty content',
    );
    expect(
      problem('claude-opus-4-8', [
        claudeCode[0],
        { role: 'system', content: [{ type: 'image', source: {} }] },
      ]),
    ).toContain("messages.1.content.0.type: Input should be a non-empty 'text' block");
  });
});
