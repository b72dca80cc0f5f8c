import { INTERRUPTED_TOOL_RESULT_TEXT, type ModelMessage, toolProtocolIssues } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { repairToolPairs } from './repair-tool-pairs.js';

const callMessage = (...ids: string[]): ModelMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'read_file', arguments: '{}' } })),
});
const result = (id: string, content = `result of ${id}`): ModelMessage => ({
  role: 'tool',
  tool_call_id: id,
  content,
});
const user = (content: string): ModelMessage => ({ role: 'user', content });
const interrupted = (id: string): ModelMessage => ({
  role: 'tool',
  tool_call_id: id,
  content: INTERRUPTED_TOOL_RESULT_TEXT,
  isError: true,
});

function repaired(messages: ModelMessage[]) {
  const repair = repairToolPairs(messages);
  expect(toolProtocolIssues(repair.messages)).toEqual([]);
  return repair;
}

describe('repairToolPairs', () => {
  it('leaves a valid list as it is', () => {
    const messages = [user('go'), callMessage('c1', 'c2'), result('c1'), result('c2'), user('thanks')];
    expect(repaired(messages)).toEqual({ messages, sourceIndexes: [0, 1, 2, 3, 4], repaired: 0, dropped: 0 });
  });

  it('answers a call without a result with an interrupted result, right after its message', () => {
    const repair = repaired([user('go'), callMessage('c1'), user('hello?')]);
    expect(repair.messages).toEqual([user('go'), callMessage('c1'), interrupted('c1'), user('hello?')]);
    expect(repair.sourceIndexes).toEqual([0, 1, undefined, 2]);
    expect(repair).toMatchObject({ repaired: 1, dropped: 0 });
    expect(repaired([callMessage('c1')]).messages).toEqual([callMessage('c1'), interrupted('c1')]);
  });

  it('drops a result whose call is gone, or that comes before its call', () => {
    const repair = repaired([
      user('go'),
      result('ghost'),
      result('c1'),
      callMessage('c1'),
      result('c1', 'real'),
    ]);
    expect(repair.messages).toEqual([user('go'), callMessage('c1'), result('c1', 'real')]);
    expect(repair.sourceIndexes).toEqual([0, 3, 4]);
    expect(repair).toMatchObject({ repaired: 0, dropped: 2 });
  });

  it('keeps the first result of a call and drops a repeat of its id', () => {
    const repair = repaired([callMessage('c1'), result('c1', 'first'), result('c1', 'again')]);
    expect(repair.messages).toEqual([callMessage('c1'), result('c1', 'first')]);
    expect(repair).toMatchObject({ repaired: 0, dropped: 1 });
  });

  it('moves a result after an intervening user message back to its call', () => {
    const repair = repaired([callMessage('c1'), user('still there?'), result('c1')]);
    expect(repair.messages).toEqual([callMessage('c1'), result('c1'), user('still there?')]);
    expect(repair.sourceIndexes).toEqual([0, 2, 1]);
    expect(repair).toMatchObject({ repaired: 0, dropped: 0 });
  });

  it('puts results in the order the calls were made', () => {
    const repair = repaired([callMessage('a', 'b', 'c'), result('c'), result('a'), result('b')]);
    expect(repair.messages).toEqual([callMessage('a', 'b', 'c'), result('a'), result('b'), result('c')]);
    expect(repair.sourceIndexes).toEqual([0, 2, 3, 1]);
  });

  it('checks every id on its own: of two calls, only the unanswered one gets a result', () => {
    const repair = repaired([callMessage('c1', 'c2'), result('c2')]);
    expect(repair.messages).toEqual([callMessage('c1', 'c2'), interrupted('c1'), result('c2')]);
    expect(repair).toMatchObject({ repaired: 1, dropped: 0 });
  });

  it('drops a result for a call of an earlier message than the latest one with calls', () => {
    // c1's message was followed by another call message, written without c1's result.
    const repair = repaired([callMessage('c1'), callMessage('c2'), result('c1'), result('c2')]);
    expect(repair.messages).toEqual([callMessage('c1'), interrupted('c1'), callMessage('c2'), result('c2')]);
    expect(repair).toMatchObject({ repaired: 1, dropped: 1 });
  });

  it('answers a reused id again in a later message', () => {
    const messages = [callMessage('c1'), result('c1'), callMessage('c1'), result('c1', 'second')];
    expect(repaired(messages)).toMatchObject({ messages, repaired: 0, dropped: 0 });
  });
});
