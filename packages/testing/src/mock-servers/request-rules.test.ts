import { describe, expect, it } from 'vitest';
import { anthropicRequestProblem } from './anthropic-request-rules.js';
import { geminiRequestProblem } from './gemini-request-rules.js';
import { openAIRequestProblem } from './openai-request-rules.js';

const call = (id: string) => ({ id, type: 'function', function: { name: 'a', arguments: '{}' } });

describe('openAIRequestProblem', () => {
  it('accepts answered tool calls and refuses unanswered or stray ones', () => {
    const user = { role: 'user', content: 'hi' };
    const assistant = { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] };
    const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
    expect(
      openAIRequestProblem({ model: 'm', messages: [user, assistant, tool('c1'), tool('c2'), user] }),
    ).toBeUndefined();
    expect(openAIRequestProblem({ model: 'm', messages: [user, assistant, tool('c1'), user] })).toContain(
      'c2',
    );
    expect(openAIRequestProblem({ model: 'm', messages: [user, tool('c9')] })).toContain("role 'tool'");
    expect(openAIRequestProblem({ model: 'm', messages: [] })).toContain('too short');
    expect(openAIRequestProblem({ messages: [user] })).toContain('model');
  });
});

describe('anthropicRequestProblem', () => {
  const base = { model: 'm', max_tokens: 10 };
  const toolUse = { type: 'tool_use', id: 't1', name: 'a', input: {} };
  const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

  it('accepts tool results in the next user message, and a final empty assistant message', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'x' }, toolUse] },
      { role: 'user', content: [toolResult('t1'), { type: 'text', text: 'and?' }] },
      { role: 'assistant', content: [] },
    ];
    expect(anthropicRequestProblem({ ...base, messages })).toBeUndefined();
  });

  it('refuses the mistakes adapters make', () => {
    const problem = (messages: unknown[], extra = {}) =>
      anthropicRequestProblem({ ...base, ...extra, messages });
    expect(problem([{ role: 'developer', content: 'x' }])).toContain("'user', 'assistant' or 'system'");
    expect(problem([{ role: 'system', content: 'x' }])).toContain('must immediately follow a `user` message');
    expect(problem([{ role: 'user', content: [{ type: 'text', text: '' }] }])).toContain('non-empty');
    expect(problem([{ role: 'user', content: '' }])).toContain('non-empty content');
    expect(
      problem([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [toolUse] },
      ]),
    ).toContain('t1');
    expect(
      problem([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [toolUse] },
        { role: 'user', content: [toolResult('t2')] },
      ]),
    ).toContain('unexpected `tool_use_id`');
    expect(anthropicRequestProblem({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).toContain(
      'max_tokens',
    );
  });
});

describe('geminiRequestProblem', () => {
  const user = { role: 'user', parts: [{ text: 'hi' }] };
  const calls = {
    role: 'model',
    parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }],
  };
  const responses = (n: number) => ({
    role: 'user',
    parts: Array.from({ length: n }, () => ({ functionResponse: { name: 'a', response: {} } })),
  });

  it('accepts matching function responses and a clean schema', () => {
    const tools = [
      {
        functionDeclarations: [
          { name: 'a', parameters: { type: 'object', properties: { $ref: { type: 'string' } } } },
        ],
      },
    ];
    expect(geminiRequestProblem({ contents: [user, calls, responses(2)], tools })).toBeUndefined();
  });

  it('refuses bad roles, empty parts, unmatched responses and JSON Schema keywords', () => {
    expect(geminiRequestProblem({ contents: [] })).toContain('contents is not specified');
    expect(geminiRequestProblem({ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] })).toContain(
      'valid role',
    );
    expect(geminiRequestProblem({ contents: [{ role: 'user', parts: [] }] })).toContain('must not be empty');
    expect(geminiRequestProblem({ contents: [user, calls, responses(1)] })).toContain(
      'number of function response',
    );
    const schema = (parameters: unknown) => ({
      contents: [user],
      tools: [{ functionDeclarations: [{ name: 'a', parameters }] }],
    });
    expect(geminiRequestProblem(schema({ type: 'object', additionalProperties: false }))).toContain(
      'additionalProperties',
    );
    expect(geminiRequestProblem(schema({ type: 'object', properties: { x: { const: 1 } } }))).toContain(
      "parameters.properties': Cannot find field",
    );
    expect(geminiRequestProblem(schema({ type: ['string', 'null'] }))).toContain('cannot start list');
  });
});
