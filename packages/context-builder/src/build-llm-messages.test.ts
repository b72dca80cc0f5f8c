import {
  CairnError,
  type ConversationMessage,
  compactionSummaryText,
  INTERRUPTED_TOOL_RESULT_TEXT,
  type Tokenizer,
  titleRecord,
  toolOutputForModel,
  toolProtocolIssues,
} from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { buildLlmMessagesFromConversation } from './build-llm-messages.js';
import { composeSystemPrompt } from './compose-system-prompt.js';
import { DEFAULT_MODE_PROFILES } from './mode-profiles.js';
import { assistant, CREATED_AT, calls, compaction, log, result, user } from './test-support.js';

function thrown(run: () => unknown): CairnError {
  try {
    run();
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CairnError');
}

describe('buildLlmMessagesFromConversation', () => {
  it('sends the system prompt, then the conversation, with stats and source seqs', () => {
    const messages = log(
      user('Read the config'), // 1
      calls('c1'), // 2
      result('c1', '{"debug":true}'), // 3
      assistant('debug is on', { reasoning: [{ text: 'easy' }] }), // 4
      user('hide me', { includeInContext: false }), // 5
    );
    const agent = { name: 'Ada', role: 'Assistant' };
    const tools = [{ name: 'read_file', description: 'Read a file', category: 'fs' }];
    const built = buildLlmMessagesFromConversation({ messages, mode: 'agent', agent, tools });

    expect(built.messages).toEqual([
      { role: 'system', content: composeSystemPrompt({ mode: 'agent', agent, tools }) },
      { role: 'user', content: 'Read the config' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"debug":true}' },
      { role: 'assistant', content: 'debug is on', reasoning: [{ text: 'easy' }] },
    ]);
    expect(built.sourceSeqs).toEqual([undefined, 1, 2, 3, 4]);
    expect(built.stats).toEqual({
      included: 4,
      repaired: 0,
      dropped: 0,
      excluded: 1,
      compacted: 0,
      tokens: expect.any(Number),
      tokensEstimatedBy: 'chars/4',
    });
  });

  it('never sends a title record (a rename), wherever it sits, even one marked includeInContext', () => {
    const rename = (title: string) => {
      const { id: _id, createdAt: _at, ...draft } = titleRecord({ id: 'x', createdAt: CREATED_AT, title });
      return draft;
    };
    const messages = log(
      rename('Named first'), // 1
      user('Read the config'), // 2
      calls('c1'), // 3
      rename('Named between a call and its result'), // 4
      result('c1', '{"debug":true}'), // 5
      { ...rename('Marked visible'), includeInContext: true }, // 6
      assistant('debug is on'), // 7
    );
    const built = buildLlmMessagesFromConversation({ messages, mode: 'chat' });
    expect(JSON.stringify(built.messages)).not.toContain('Named');
    expect(JSON.stringify(built.messages)).not.toContain('Marked visible');
    expect(built.sourceSeqs).toEqual([undefined, 2, 3, 5, 7]);
    // The call and its result stay a pair: nothing to repair.
    expect(built.stats).toMatchObject({ included: 4, repaired: 0, excluded: 3 });
  });

  it('builds from an empty log', () => {
    const built = buildLlmMessagesFromConversation({ messages: [], mode: 'chat' });
    expect(built.messages).toEqual([{ role: 'system', content: DEFAULT_MODE_PROFILES.chat }]);
    expect(built.sourceSeqs).toEqual([undefined]);
  });

  it('leaves the system prompt out when told to', () => {
    const built = buildLlmMessagesFromConversation({
      messages: log(user('hi')),
      mode: 'chat',
      settings: { includeSystemPrompt: false },
    });
    expect(built.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(built.sourceSeqs).toEqual([1]);
  });

  it('lets the user say "continue" after a recorded failure', () => {
    const messages = log(
      user('Summarise the report'),
      assistant('Rate limited by the provider', { partType: 'error', errorCode: 'LLM_RATE_LIMITED' }),
      user('continue'),
    );
    const built = buildLlmMessagesFromConversation({ messages, mode: 'chat' });
    expect(built.messages.slice(1)).toEqual([
      { role: 'user', content: 'Summarise the report' },
      {
        role: 'assistant',
        content: '[The previous request failed: Rate limited by the provider (LLM_RATE_LIMITED)]',
      },
      { role: 'user', content: 'continue' },
    ]);
  });

  it('repairs the pairs a compaction range cuts, and maps every message to its seq', () => {
    const messages = log(
      user('start'), // 1
      calls('c1'), // 2
      result('c1'), // 3
      calls('c2', 'c3'), // 4
      result('c2'), // 5  (c3 is answered only after the range)
      compaction(1, 5, 'Read two files.'), // 6
      result('c3'), // 7
      calls('c4'), // 8  (never answered)
      user('are you there?'), // 9
    );
    const built = buildLlmMessagesFromConversation({ messages, mode: 'agent' });
    expect(toolProtocolIssues(built.messages)).toEqual([]);
    expect(built.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', compactionSummaryText('Read two files.')],
      ['assistant', null],
      ['tool', INTERRUPTED_TOOL_RESULT_TEXT],
      ['user', 'are you there?'],
    ]);
    expect(built.sourceSeqs).toEqual([undefined, 1, 8, undefined, 9]);
    expect(built.stats).toMatchObject({ included: 3, repaired: 1, dropped: 1, excluded: 0, compacted: 5 });
  });

  it('sends the active branch only: what an edit replaced stays in the log, out of the request', () => {
    const messages = log(
      user('Read a.ts'), // 1
      calls('c1'), // 2
      result('c1'), // 3
      assistant('a.ts exports one function.'), // 4
      user('Now b.ts'), // 5
      assistant('b.ts is empty.'), // 6
      user('Now c.ts', { branchFrom: 5 }), // 7: edits 5
      assistant('c.ts has two classes.'), // 8
    );
    const built = buildLlmMessagesFromConversation({ messages, mode: 'agent' });
    expect(built.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Read a.ts'],
      ['assistant', null],
      ['tool', 'result of c1'],
      ['assistant', 'a.ts exports one function.'],
      ['user', 'Now c.ts'],
      ['assistant', 'c.ts has two classes.'],
    ]);
    expect(built.sourceSeqs).toEqual([undefined, 1, 2, 3, 4, 7, 8]);
    expect(built.stats).toMatchObject({ included: 6, excluded: 2 });
  });

  it('drops a compaction record and tool calls left on a replaced branch; a regeneration answers anew', () => {
    const messages = log(
      user('start'), // 1
      calls('c1'), // 2 (answered only on the branch that is replaced)
      result('c1'), // 3
      compaction(1, 3, 'Read a file.'), // 4
      user('start', { branchFrom: 1 }), // 5: regenerates the answer to 1
      assistant('Started again.'), // 6
    );
    const built = buildLlmMessagesFromConversation({ messages, mode: 'agent' });
    expect(toolProtocolIssues(built.messages)).toEqual([]);
    expect(built.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'start'],
      ['assistant', 'Started again.'],
    ]);
    expect(built.stats).toMatchObject({ included: 2, excluded: 4, compacted: 0, repaired: 0 });
  });

  it('keeps its stats consistent: every log message is counted once', () => {
    const messages = log(
      user('a'),
      calls('c1'),
      result('ghost'),
      user('b', { includeInContext: false }),
      compaction(1, 1, 'sum'),
    );
    const { stats, messages: sent } = buildLlmMessagesFromConversation({ messages, mode: 'chat' });
    expect(stats.included + stats.excluded + stats.compacted + stats.dropped).toBe(messages.length);
    expect(sent.length).toBe(1 + stats.included + stats.repaired);
  });

  it('counts tokens with the given tokenizer, else estimates chars / 4', () => {
    const tokenizer: Tokenizer = {
      name: 'fixed',
      countText: () => 1,
      count: (messages) => messages.length * 10,
    };
    const messages = log(user('x'.repeat(40)));
    const counted = buildLlmMessagesFromConversation({ messages, mode: 'chat', settings: { tokenizer } });
    expect(counted.stats).toMatchObject({ tokens: 20, tokensEstimatedBy: 'fixed' });

    const estimated = buildLlmMessagesFromConversation({
      messages,
      mode: 'chat',
      settings: { includeSystemPrompt: false },
    });
    expect(estimated.stats).toMatchObject({ tokens: 10, tokensEstimatedBy: 'chars/4' });
  });

  it('builds the run context into the prompt in run mode', () => {
    const built = buildLlmMessagesFromConversation({
      messages: log(user('next')),
      mode: 'run',
      runContext: {
        packageName: 'kit',
        workflowName: 'flow',
        currentStepId: 'draft',
        stepInstruction: 'Write it.',
      },
    });
    expect(built.messages[0]?.content).toContain('- Current step: draft');
    expect(built.messages[0]?.content).toContain('Write it.');
  });

  it('sends no active-step information once the run is completed', () => {
    const runContext = {
      packageName: 'kit',
      workflowName: 'flow',
      status: 'completed' as const,
      currentStepId: 'publish-step',
      currentStepName: 'Publish the draft',
      stepInstruction: 'Press the big button.',
      stepsCompleted: ['draft'],
      outgoingEdges: [{ label: 'retry', targetNodeId: 'draft-again', isDefault: true }],
    };
    const built = buildLlmMessagesFromConversation({
      messages: log(user('how did it go?')),
      mode: 'run',
      runContext,
    });
    const prompt = built.messages[0]?.content ?? '';
    expect(prompt).toContain(DEFAULT_MODE_PROFILES.postCompletion);
    expect(prompt).toContain('- Status: completed');
    for (const absent of [
      'publish-step',
      'Publish the draft',
      'big button',
      'retry',
      'draft-again',
      'Current step',
    ]) {
      expect(prompt).not.toContain(absent);
    }
  });
});

describe('buildLlmMessagesFromConversation: validation', () => {
  it('refuses an invalid log message with INVALID_MESSAGE naming it', () => {
    const messages = log(user('a'), { role: 'tool', content: 'no call id' } as never);
    const error = thrown(() => buildLlmMessagesFromConversation({ messages, mode: 'chat' }));
    expect(error.code).toBe('INVALID_MESSAGE');
    expect(error.message).toBe(
      'Invalid conversation message m2 at tool_call_id: a tool message needs tool_call_id',
    );
    expect(error.details).toMatchObject({ messageId: 'm2', index: 1 });

    const noId = thrown(() =>
      buildLlmMessagesFromConversation({ messages: [{ role: 'user' } as ConversationMessage], mode: 'chat' }),
    );
    expect(noId).toMatchObject({ code: 'INVALID_MESSAGE', details: { messageId: 'at index 0' } });
  });

  it('refuses a log out of seq order (or with a repeated seq) with INVALID_ARGUMENT', () => {
    const outOfOrder = log(user('a', { seq: 2 }), user('b', { seq: 1 }));
    expect(
      thrown(() => buildLlmMessagesFromConversation({ messages: outOfOrder, mode: 'chat' })),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Message m2 has seq 1 after seq 2: the log must be in seq order',
    });
    const repeated = log(user('a', { seq: 3 }), user('b', { seq: 3 }));
    expect(thrown(() => buildLlmMessagesFromConversation({ messages: repeated, mode: 'chat' })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('accepts messages not stored yet (no seq) anywhere in the log', () => {
    const messages = [
      ...log(user('a')),
      { id: 'new', role: 'user', content: 'b', createdAt: CREATED_AT } as const,
    ];
    const built = buildLlmMessagesFromConversation({ messages, mode: 'chat' });
    expect(built.sourceSeqs).toEqual([undefined, 1, undefined]);
  });

  it('bounds each tool output to maxToolResultChars as the loop does, the offloaded ones as stored', () => {
    const big = `BEGIN ${'x'.repeat(10_000)} END`;
    const messages = log(user('go'), calls('c1'), result('c1', big));
    const [, , , bounded] = buildLlmMessagesFromConversation({
      messages,
      mode: 'chat',
      settings: { maxToolResultChars: 1_000 },
    }).messages;
    expect(bounded?.content).toBe(toolOutputForModel({ content: big }, 1_000));
    expect(bounded?.content?.length).toBeLessThanOrEqual(1_000);
    // The default is the most a store keeps inline: an output the store kept is sent whole.
    expect(buildLlmMessagesFromConversation({ messages, mode: 'chat' }).messages[3]?.content).toBe(big);
    for (const maxToolResultChars of [0, 2.5]) {
      expect(
        thrown(() =>
          buildLlmMessagesFromConversation({ messages: [], mode: 'chat', settings: { maxToolResultChars } }),
        ).code,
      ).toBe('INVALID_ARGUMENT');
    }
  });

  it('refuses a bad mode, a non-array log and a bad run context with INVALID_ARGUMENT', () => {
    expect(thrown(() => buildLlmMessagesFromConversation({ messages: [], mode: 'plan' as never })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(thrown(() => buildLlmMessagesFromConversation({ messages: {} as never, mode: 'chat' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    const runContext = { packageName: 'kit' } as never;
    const error = thrown(() => buildLlmMessagesFromConversation({ messages: [], mode: 'run', runContext }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/^Invalid run context at workflowName: /);
    // Validated even when the prompt is not sent.
    expect(() =>
      buildLlmMessagesFromConversation({
        messages: [],
        mode: 'run',
        runContext,
        settings: { includeSystemPrompt: false },
      }),
    ).toThrow(CairnError);
  });
});

describe('buildLlmMessagesFromConversation: long logs', () => {
  /** A log of `turns` × 5 messages: calls answered out of order, hidden messages, a compaction record. */
  function longLog(turns: number): ConversationMessage[] {
    const drafts = [];
    for (let turn = 0; turn < turns; turn++) {
      drafts.push(
        user(`question ${turn}`),
        calls(`a${turn}`, `b${turn}`),
        result(`b${turn}`),
        result(`a${turn}`),
      );
      drafts.push(turn % 2 === 0 ? assistant(`answer ${turn}`) : user('hidden', { includeInContext: false }));
    }
    drafts.push(compaction(1, turns * 2, 'The first half.'));
    return log(...drafts);
  }

  // Speed is not timed here (timed tests are flaky on a loaded machine): only that a long log builds whole.
  it('builds a 10,000-message log, protocol-valid, every message accounted for', () => {
    const long = longLog(2_000);
    const built = buildLlmMessagesFromConversation({ messages: long, mode: 'agent' });
    expect(built.stats.compacted + built.stats.excluded + built.stats.included + built.stats.dropped).toBe(
      long.length,
    );
    expect(toolProtocolIssues(built.messages)).toEqual([]);
  });
});
