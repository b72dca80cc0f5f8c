import { describe, expect, it } from 'vitest';
import { toolProtocolIssues } from './tool-protocol.js';

const call = (...ids: string[]) => ({ role: 'assistant', tool_calls: ids.map((id) => ({ id })) });
const result = (id: string) => ({ role: 'tool', tool_call_id: id });
const user = { role: 'user' };

describe('toolProtocolIssues', () => {
  it('accepts calls answered right after, in any order', () => {
    expect(
      toolProtocolIssues([user, call('a', 'b'), result('b'), result('a'), { role: 'assistant' }]),
    ).toEqual([]);
  });

  it('finds unanswered calls, orphans, results answered twice or too late', () => {
    expect(toolProtocolIssues([user, call('a', 'b'), result('a'), user])).toEqual([
      { index: 1, problem: 'calls without a result: b' },
    ]);
    expect(toolProtocolIssues([user, result('a')])).toEqual([
      { index: 1, problem: 'a tool result for a with no call waiting for it' },
    ]);
    expect(toolProtocolIssues([call('a'), result('a'), result('a')]).map((issue) => issue.index)).toEqual([
      2,
    ]);
    expect(toolProtocolIssues([call('a'), user, result('a')]).map((issue) => issue.index)).toEqual([0, 2]);
  });
});
