import { describe, expect, it } from 'vitest';
import { type StoredMessage, settledPrefix, toUIMessages } from './stored-messages.ts';

const user = (id: string, content: string): StoredMessage => ({ id, role: 'user', content });

// A call that asked for approval, as the log stores it: the call, then the request record.
const askedToBuild: StoredMessage[] = [
  {
    id: 'a1',
    role: 'assistant',
    tool_calls: [{ id: 'c1', function: { name: 'run_command', arguments: '{"command":"make"}' } }],
  },
  {
    id: 'a1.a0',
    role: 'system',
    partType: 'approval_request',
    approval: { kind: 'request', toolCallId: 'c1' },
  },
];
const buildCall = {
  type: 'dynamic-tool',
  toolName: 'run_command',
  toolCallId: 'c1',
  input: { command: 'make' },
};
const decision = (outcome: string, reason?: string): StoredMessage => ({
  id: 'a1.a0.d',
  role: 'system',
  partType: 'approval_decision',
  approval: { kind: 'decision', requestId: 'a1.a0', outcome, ...(reason === undefined ? {} : { reason }) },
});

describe('toUIMessages', () => {
  it('folds an answer’s steps into one assistant message: reasoning, text, the call with its result', () => {
    const messages: StoredMessage[] = [
      user('u1', 'What do my notes say?'),
      {
        id: 'a1',
        role: 'assistant',
        content: 'Reading them.',
        reasoning: [{ text: 'The notes are in notes.txt.' }],
        tool_calls: [{ id: 'c1', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }],
      },
      { id: 't1', role: 'tool', tool_call_id: 'c1', content: 'Buy milk.' },
      { id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'They say: buy milk.' }] },
    ];
    expect(toUIMessages(messages)).toEqual([
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What do my notes say?' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'The notes are in notes.txt.', state: 'done' },
          { type: 'text', text: 'Reading them.', state: 'done' },
          {
            type: 'dynamic-tool',
            toolName: 'read_file',
            toolCallId: 'c1',
            input: { path: 'notes.txt' },
            state: 'output-available',
            output: 'Buy milk.',
          },
          { type: 'text', text: 'They say: buy milk.', state: 'done' },
        ],
      },
    ]);
  });

  it('shows a failed call as an error, with its structured result when there is one otherwise', () => {
    const call = (id: string) => ({ id, function: { name: 'run_command', arguments: 'not json' } });
    const [, answer] = toUIMessages([
      user('u1', 'go'),
      { id: 'a1', role: 'assistant', tool_calls: [call('c1'), call('c2')] },
      { id: 't1', role: 'tool', tool_call_id: 'c1', isError: true, content: 'exit 1' },
      { id: 't2', role: 'tool', tool_call_id: 'c2', content: 'ok', structuredResult: { exitCode: 0 } },
    ]);
    expect(answer?.parts).toEqual([
      {
        type: 'dynamic-tool',
        toolName: 'run_command',
        toolCallId: 'c1',
        input: 'not json',
        state: 'output-error',
        errorText: 'exit 1',
      },
      {
        type: 'dynamic-tool',
        toolName: 'run_command',
        toolCallId: 'c2',
        input: 'not json',
        state: 'output-available',
        output: { exitCode: 0 },
      },
    ]);
  });

  it('leaves out the server’s notes of failed and aborted turns', () => {
    const ui = toUIMessages([
      user('u1', 'go'),
      { id: 'a1', role: 'assistant', content: 'Chapter 1.', interrupted: true },
      { id: 'e1', role: 'assistant', content: 'openai: aborted by request', partType: 'error' },
    ]);
    expect(ui.map((message) => message.parts)).toEqual([
      [{ type: 'text', text: 'go' }],
      [{ type: 'text', text: 'Chapter 1.', state: 'done' }],
    ]);
  });
  it('shows a call waiting for approval as approval-requested, named by its request (what a decision answers)', () => {
    const [, answer] = toUIMessages([user('u1', 'Run the build'), ...askedToBuild]);
    expect(answer?.parts).toEqual([{ ...buildCall, state: 'approval-requested', approval: { id: 'a1.a0' } }]);
  });

  it('shows an approved call with its output, a denied one as denied with the reason the model read', () => {
    const approved = toUIMessages([
      user('u1', 'Run the build'),
      ...askedToBuild,
      decision('approve'),
      { id: 'a1.r0', role: 'tool', tool_call_id: 'c1', content: 'built', structuredResult: { exitCode: 0 } },
      { id: 'a2', role: 'assistant', content: 'Done.' },
    ]);
    expect(approved[1]?.parts).toEqual([
      { ...buildCall, state: 'output-available', output: { exitCode: 0 } },
      { type: 'text', text: 'Done.', state: 'done' },
    ]);
    const denied = toUIMessages([
      user('u1', 'Run the build'),
      ...askedToBuild,
      decision('deny', 'Not today'),
      { id: 'a1.r0', role: 'tool', tool_call_id: 'c1', isError: true, content: 'The user did not approve…' },
    ]);
    expect(denied[1]?.parts).toEqual([
      {
        ...buildCall,
        state: 'output-denied',
        approval: { id: 'a1.a0', approved: false, reason: 'Not today' },
      },
    ]);
  });

  it('shows an approved call whose result is not stored yet as answered, and an expired request as denied', () => {
    const running = toUIMessages([user('u1', 'Run the build'), ...askedToBuild, decision('approve')]);
    expect(running[1]?.parts).toEqual([
      { ...buildCall, state: 'approval-responded', approval: { id: 'a1.a0', approved: true } },
    ]);
    const expired = toUIMessages([user('u1', 'Run the build'), ...askedToBuild, decision('expired')]);
    expect(expired[1]?.parts).toEqual([
      {
        ...buildCall,
        state: 'approval-responded',
        approval: { id: 'a1.a0', approved: false, reason: 'expired' },
      },
    ]);
  });
});

describe('settledPrefix', () => {
  const answered: StoredMessage[] = [user('u1', 'hi'), { id: 'a1', role: 'assistant', content: 'hello' }];

  it('keeps a conversation whose last turn has its final answer', () => {
    expect(settledPrefix(answered)).toEqual(answered);
  });

  it('drops the stored steps of an answer still under way, which the resumed stream brings again', () => {
    const running: StoredMessage[] = [
      ...answered,
      user('u2', 'read it'),
      {
        id: 'a2',
        role: 'assistant',
        tool_calls: [{ id: 'c1', function: { name: 'read_file', arguments: '{}' } }],
      },
      { id: 't1', role: 'tool', tool_call_id: 'c1', content: '…' },
    ];
    expect(settledPrefix(running)).toEqual([...answered, user('u2', 'read it')]);
  });

  it('keeps a turn that waits for an approval: nothing runs, so nothing is resumed', () => {
    const waiting = [...answered, user('u2', 'Run the build'), ...askedToBuild];
    expect(settledPrefix(waiting)).toEqual(waiting);
  });

  it('keeps the decided call of a turn going on after its approval, which the resumed stream continues', () => {
    const decided = [...answered, user('u2', 'Run the build'), ...askedToBuild, decision('approve')];
    const running: StoredMessage[] = [
      ...decided,
      { id: 'a1.i0.1', role: 'system', partType: 'tool_intent' },
      { id: 'a1.r0', role: 'tool', tool_call_id: 'c1', content: 'built' },
    ];
    expect(settledPrefix(running)).toEqual(decided);
  });
});
