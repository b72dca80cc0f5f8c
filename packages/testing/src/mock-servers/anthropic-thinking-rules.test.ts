import { describe, expect, it } from 'vitest';
import { anthropicRequestProblem } from './anthropic-request-rules.js';
import { anthropicThinkingSignature } from './anthropic-thinking-signature.js';

const THINKING = { type: 'enabled', budget_tokens: 1024 };
const thinking = (text: string) => ({
  type: 'thinking',
  thinking: text,
  signature: anthropicThinkingSignature(text),
});
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'read', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const problem = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  anthropicRequestProblem({ model: 'claude-opus-4-8', max_tokens: 2048, messages, ...extra });

describe('anthropicRequestProblem: thinking', () => {
  it('accepts a tool loop that replays its signed thinking, and later turns without it', () => {
    const loop = [
      user('go'),
      assistant([thinking('plan'), toolUse('t1')]),
      user([toolResult('t1')]),
      assistant([toolUse('t2')]),
      user([toolResult('t2')]),
    ];
    expect(problem(loop, { thinking: THINKING })).toBeUndefined();
    // A finished loop's thinking may be dropped once a new user prompt starts the next turn.
    const next = [
      user('go'),
      assistant([toolUse('t1')]),
      user([toolResult('t1')]),
      assistant('done'),
      user('again'),
    ];
    expect(problem(next, { thinking: THINKING })).toBeUndefined();
    expect(problem(next.slice(0, 3))).toBeUndefined();
  });

  it('refuses a tool loop without its thinking with thinking on, with the API error text', () => {
    const found = problem([user('go'), assistant([toolUse('t1')]), user([toolResult('t1')])], {
      thinking: THINKING,
    });
    expect(found).toBe(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    );
    // The loop's first assistant message is the one checked, however many tool rounds follow.
    const long = [
      user('go'),
      assistant([{ type: 'text', text: 'let me look' }, toolUse('t1')]),
      user([toolResult('t1')]),
      assistant([thinking('late'), toolUse('t2')]),
      user([toolResult('t2')]),
    ];
    expect(problem(long, { thinking: THINKING })).toContain(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`',
    );
    expect(problem(long, { thinking: { type: 'disabled' } })).toBeUndefined();
    // With adaptive thinking Claude may call tools without thinking (Claude Code replays such loops).
    expect(problem(long, { thinking: { type: 'adaptive' } })).toBeUndefined();
  });

  it('accepts redacted thinking at the start of the loop and refuses it without data', () => {
    const redacted = (data: string) => [
      user('go'),
      assistant([{ type: 'redacted_thinking', data }, toolUse('t1')]),
      user([toolResult('t1')]),
    ];
    expect(problem(redacted('EmwKAhgB'), { thinking: THINKING })).toBeUndefined();
    expect(problem(redacted(''), { thinking: THINKING })).toBe('messages.1.content.0.data: Field required');
  });

  it('refuses a thinking block whose text or signature changed, or that has none', () => {
    const replay = (block: Record<string, unknown>) =>
      problem([user('go'), assistant([block, toolUse('t1')]), user([toolResult('t1')])], {
        thinking: THINKING,
      });
    expect(replay({ ...thinking('plan'), thinking: 'plan, edited' })).toBe(
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    expect(replay({ ...thinking('plan'), signature: 'c2lnbmF0dXJl' })).toBe(
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    expect(replay({ type: 'thinking', thinking: 'plan' })).toBe(
      'messages.1.content.0.signature: Field required',
    );
    // Signatures are checked with thinking off too: a forged block is refused, not ignored.
    expect(
      problem([
        user('go'),
        assistant([
          { ...thinking('x'), signature: 'Zm9yZ2Vk' },
          { type: 'text', text: 'y' },
        ]),
        user('z'),
      ]),
    ).toContain('Invalid `signature`');
  });

  it('refuses thinking in a final assistant message with thinking off', () => {
    expect(problem([user('go'), assistant([thinking('plan')])])).toBe(
      'messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.',
    );
    expect(problem([user('go'), assistant([thinking('plan')])], { thinking: THINKING })).toBeUndefined();
  });
});

describe('anthropicRequestProblem: turns', () => {
  it('combines consecutive same-role messages into one turn, as the API does', () => {
    const split = [user('go'), assistant([toolUse('t1')]), user([toolResult('t1')]), user('and also this')];
    expect(problem(split)).toBeUndefined();
    expect(
      problem([user('a'), user('b'), assistant('c'), assistant([toolUse('t1')]), user([toolResult('t1')])]),
    ).toBeUndefined();
  });

  it('wants the tool results first in the next turn, before any text', () => {
    expect(
      problem([
        user('go'),
        assistant([toolUse('t1')]),
        user([{ type: 'text', text: 'here' }, toolResult('t1')]),
      ]),
    ).toBe(
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: t1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });
});
