import { describe, expect, it } from 'vitest';
import { readScenarioPosition } from './read-scenario-position.js';

describe('readScenarioPosition', () => {
  it('takes the last marker of the last user text that has one and counts the model turns after it', () => {
    const body = {
      messages: [
        { role: 'user', content: 'First. [scenario:main]' },
        { role: 'system', content: 'Available agent types …' },
        { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: '[scenario:bigout]' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'again' }] },
        { role: 'user', content: [{ type: 'text', text: 'Again [scenario:x] then [scenario:resume2]' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u', content: 'ok' }] },
      ],
    };
    expect(readScenarioPosition(body)).toEqual({ scenario: 'resume2', turn: 1, messageCount: 8 });
  });

  it('reads Gemini contents, whose model messages have role model', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Do it. [scenario:main]' }] },
        { role: 'model', parts: [{ functionCall: { name: 'write_file', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'write_file', response: {} } }] },
        { role: 'model', parts: [{ text: 'ok' }] },
      ],
    };
    expect(readScenarioPosition(body)).toEqual({ scenario: 'main', turn: 2, messageCount: 4 });
  });

  it('reads Responses API input, where each run of model items is one turn', () => {
    const body = {
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Do it. [scenario:main]' }] },
        { type: 'reasoning', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'done' },
        { type: 'function_call', call_id: 'c2', name: 'exec_command', arguments: '{}' },
        { type: 'function_call', call_id: 'c3', name: 'exec_command', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c2', output: '' },
        { type: 'function_call_output', call_id: 'c3', output: '' },
      ],
    };
    expect(readScenarioPosition(body)).toEqual({ scenario: 'main', turn: 2, messageCount: 9 });
  });

  it('finds no position without a marker (a router or title request)', () => {
    expect(
      readScenarioPosition({ contents: [{ role: 'user', parts: [{ text: 'route me' }] }] }),
    ).toBeUndefined();
    expect(readScenarioPosition('not json')).toBeUndefined();
  });
});
