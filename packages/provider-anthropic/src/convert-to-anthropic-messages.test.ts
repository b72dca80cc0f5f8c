import { CairnError, type ModelMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { convertToAnthropicMessages, LEADING_USER_TEXT } from './convert-to-anthropic-messages.js';

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('convertToAnthropicMessages', () => {
  it('moves system messages to system and keeps user and assistant text', () => {
    expect(
      convertToAnthropicMessages([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'How are you?' },
      ]),
    ).toEqual({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer in French.' },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
        { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
      ],
    });
  });

  it('merges consecutive tool results and the user message after them into one user turn', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          call('toolu_1', 'get_weather', '{"city":"Paris"}'),
          call('toolu_2', 'get_weather', '{"city":"Oslo"}'),
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'city not found', isError: true },
      { role: 'user', content: 'Also Rome, please.' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'city not found', is_error: true },
          { type: 'text', text: 'Also Rome, please.' },
        ],
      },
    ]);
  });

  it('never sends blank text: an assistant turn with only tool calls has no text block', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'List files' },
      { role: 'assistant', content: '  ', tool_calls: [call('t1', 'ls', '{}')] },
      { role: 'tool', tool_call_id: 't1', content: '' },
      { role: 'user', content: '' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'List files' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
    ]);
  });

  it('gives a failed tool result with no output a message, as Anthropic requires', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('t1', 'run', '{}')] },
      { role: 'tool', tool_call_id: 't1', content: ' ', isError: true },
    ]);
    expect(messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: 'The tool failed without a message.',
        is_error: true,
      },
    ]);
  });

  it('trims the trailing whitespace of a final assistant (prefill) turn, which Anthropic rejects', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Earlier answer.  \n' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: '  Sure,\n' },
      { role: 'assistant', content: 'here it is: \n\t ' },
    ]);
    // Only the final turn's last text block: earlier text keeps its whitespace.
    expect(messages[1]?.content).toEqual([{ type: 'text', text: 'Earlier answer.  \n' }]);
    expect(messages[3]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: '  Sure,\n' },
        { type: 'text', text: 'here it is:' },
      ],
    });
  });

  it('leaves assistant text as is when the conversation ends with a user turn', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'answer \n' },
      { role: 'user', content: 'thanks ' },
    ]);
    expect(messages[1]?.content).toEqual([{ type: 'text', text: 'answer \n' }]);
    expect(messages[2]?.content).toEqual([{ type: 'text', text: 'thanks ' }]);
  });

  it('puts tool results before user text that came first in the same turn', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('t1', 'run', '{}')] },
      { role: 'user', content: 'hurry' },
      { role: 'tool', tool_call_id: 't1', content: 'done' },
    ]);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'done' },
      { type: 'text', text: 'hurry' },
    ]);
  });

  it('merges consecutive assistant and user messages and starts with a user turn', () => {
    expect(
      convertToAnthropicMessages([
        { role: 'system', content: 'sys' },
        { role: 'assistant', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
        { role: 'user', content: 'four' },
      ]).messages,
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: LEADING_USER_TEXT }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'three' },
          { type: 'text', text: 'four' },
        ],
      },
    ]);
  });

  it('replays Anthropic thinking with its signature and redacted thinking with its data, first', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'think' },
      {
        role: 'assistant',
        content: 'Answer',
        reasoning: [
          { text: 'Let me think.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
          { text: '', redacted: true, providerMetadata: { anthropic: { data: 'enc-1' } } },
          { text: 'Omitted display', providerMetadata: { anthropic: { signature: 'sig-2' } } },
        ],
      },
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'enc-1' },
      { type: 'thinking', thinking: 'Omitted display', signature: 'sig-2' },
      { type: 'text', text: 'Answer' },
    ]);
  });

  it("drops reasoning without Anthropic's signature: another provider's, or none", () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'think' },
      {
        role: 'assistant',
        content: 'Answer',
        reasoning: [
          { text: 'Gemini thought', providerMetadata: { gemini: { thoughtSignature: 'g' } } },
          { text: 'plain' },
          { text: '', redacted: true, providerMetadata: { openai: { encrypted: 'x' } } },
          { text: 'bad', providerMetadata: { anthropic: { signature: 42 } } },
        ],
        providerMetadata: { gemini: { t1: 'sig' } },
      },
    ]);
    expect(messages[1]?.content).toEqual([{ type: 'text', text: 'Answer' }]);
  });

  it('refuses a request with nothing but system text', () => {
    for (const messages of [[], [{ role: 'system', content: 'x' }], [{ role: 'user', content: ' ' }]]) {
      expect(() => convertToAnthropicMessages(messages as ModelMessage[])).toThrow(CairnError);
      try {
        convertToAnthropicMessages(messages as ModelMessage[]);
      } catch (error) {
        expect(CairnError.is(error, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
  });
});
