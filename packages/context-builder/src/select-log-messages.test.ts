import { compactionSummaryText } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { selectLogMessages } from './select-log-messages.js';
import { assistant, calls, compaction, log, result, system, user } from './test-support.js';

describe('selectLogMessages: filtering', () => {
  it('leaves out hidden and display-only messages, keeps log system messages in place', () => {
    const selection = selectLogMessages(
      log(
        user('hi'),
        user('secret note', { includeInContext: false }),
        assistant('thinking about it', { partType: 'thinking' }),
        system('The user switched to metric units.'),
        assistant('hello', { includeInContext: true }),
      ),
    );
    expect(selection.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'The user switched to metric units.' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(selection.seqs).toEqual([1, 4, 5]);
    expect(selection).toMatchObject({ excluded: 2, compacted: 0, summarised: false });
  });
});

describe('selectLogMessages: compaction', () => {
  it('replaces the covered range by the summary, where the range starts', () => {
    const selection = selectLogMessages(
      log(
        user('first'), // 1
        user('second'), // 2
        assistant('third'), // 3
        user('fourth'), // 4
        compaction(2, 3, 'They said hello twice.'), // 5
        assistant('fifth'), // 6
      ),
    );
    expect(selection.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: compactionSummaryText('They said hello twice.') },
      { role: 'user', content: 'fourth' },
      { role: 'assistant', content: 'fifth' },
    ]);
    expect(selection.seqs).toEqual([1, 2, 4, 6]);
    expect(selection).toMatchObject({ excluded: 0, compacted: 2, summarised: true });
  });

  it('applies only the latest record; older ones are superseded', () => {
    const selection = selectLogMessages(
      log(
        user('a'), // 1
        user('b'), // 2
        compaction(1, 2, 'old summary'), // 3
        user('c'), // 4
        compaction(1, 4, 'new summary'), // 5
        user('d'), // 6
      ),
    );
    expect(selection.messages.map((m) => m.content)).toEqual([compactionSummaryText('new summary'), 'd']);
    expect(selection.seqs).toEqual([1, 6]);
    expect(selection).toMatchObject({ excluded: 0, compacted: 4 });
  });

  it('leaves out superseded records outside the latest range, hidden records and records without a range', () => {
    const selection = selectLogMessages(
      log(
        compaction(1, 1, 'older'), // 1 (covers itself; superseded)
        user('a'), // 2
        { role: 'system', partType: 'compaction', content: 'no range' }, // 3
        user('b'), // 4
        compaction(4, 4, 'newest'), // 5
        { ...compaction(2, 4, 'hidden newer'), includeInContext: false }, // 6
      ),
    );
    expect(selection.messages.map((m) => m.content)).toEqual(['a', compactionSummaryText('newest')]);
    expect(selection).toMatchObject({ excluded: 3, compacted: 1 });
  });

  it('counts hidden messages in the range as excluded, not compacted', () => {
    const selection = selectLogMessages(
      log(user('a', { includeInContext: false }), user('b'), compaction(1, 2, 'sum')),
    );
    expect(selection.messages.map((m) => m.content)).toEqual([compactionSummaryText('sum')]);
    expect(selection).toMatchObject({ excluded: 1, compacted: 1 });
  });

  it('still sends the summary when no loaded message is in or after the range', () => {
    const partial = log(user('a'), compaction(10, 20, 'later'));
    partial[1] = { ...(partial[1] as (typeof partial)[number]), seq: undefined };
    expect(selectLogMessages(partial).messages.map((m) => m.content)).toEqual([
      'a',
      compactionSummaryText('later'),
    ]);
  });

  it('may cut a call from its result (the repair step mends it)', () => {
    const selection = selectLogMessages(log(user('go'), calls('c1'), result('c1'), compaction(1, 2, 'sum')));
    expect(selection.messages).toEqual([
      { role: 'user', content: compactionSummaryText('sum') },
      { role: 'tool', tool_call_id: 'c1', content: 'result of c1' },
    ]);
  });
});
