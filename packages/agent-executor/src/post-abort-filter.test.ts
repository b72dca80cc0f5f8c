import type { AgentOutput } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostAbortFilter } from './post-abort-filter.js';

const timestamp = '2026-11-26T20:00:00.000Z';
const call = (id: string): AgentOutput => ({
  type: 'tool_use',
  timestamp,
  id,
  toolName: 'Bash',
  input: { command: 'sleep 30' },
});
const result = (toolUseId: string): AgentOutput => ({
  type: 'tool_result',
  timestamp,
  toolUseId,
  output: 'x',
  isError: true,
});

describe('PostAbortFilter', () => {
  it('passes everything before the abort', () => {
    const filter = new PostAbortFilter();
    const events: AgentOutput[] = [
      { type: 'text', timestamp, id: 't', text: 'Waiting.' },
      call('a'),
      result('a'),
    ];
    expect(events.map((event) => filter.pass(event))).toEqual(events);
    expect(filter.discarded).toBe(0);
  });

  it("after the abort keeps the CLI's status and drops a new turn, counting it", () => {
    const filter = new PostAbortFilter();
    filter.pass(call('a'));
    filter.abort();
    const kept = [
      result('a'),
      { type: 'user_message', text: '[Request interrupted by user for tool use]' },
      { type: 'text', text: 'Slept.' },
      call('b'),
      result('b'),
      { type: 'text_delta', id: 't', delta: 'More' },
      { type: 'error', code: 'AGENT_FAILED', message: 'error_during_execution', retryable: false },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
      { type: 'session_result', isError: false, subtype: 'success', result: 'Slept.', turns: 2 },
    ].map((event) => filter.pass({ timestamp, ...event } as AgentOutput));

    expect(kept).toEqual([
      result('a'),
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { type: 'usage', timestamp, usage: { inputTokens: 1, outputTokens: 2 } },
      { type: 'session_result', timestamp, isError: false, subtype: 'success', turns: 2 },
    ]);
    expect(filter.discarded).toBe(4);
  });

  it('never lets text, reasoning or a new call through after the abort (property)', () => {
    const event = fc.oneof(
      fc.string().map((text): AgentOutput => ({ type: 'text', timestamp, id: 't', text })),
      fc.string().map((text): AgentOutput => ({ type: 'reasoning', timestamp, id: 'r', text })),
      fc.constantFrom('a', 'b', 'c').map(call),
      fc.constantFrom('a', 'b', 'c').map(result),
      fc.constant<AgentOutput>({ type: 'session_result', timestamp, isError: true, result: 'late' }),
    );
    fc.assert(
      fc.property(fc.array(event), fc.array(event), (before, after) => {
        const filter = new PostAbortFilter();
        const calls = new Set(before.flatMap((item) => (item.type === 'tool_use' ? [item.id] : [])));
        for (const item of before) expect(filter.pass(item)).toEqual(item);
        filter.abort();
        for (const item of after) {
          const passed = filter.pass(item);
          if (passed === undefined) continue;
          expect(['text', 'reasoning', 'tool_use']).not.toContain(passed.type);
          if (passed.type === 'tool_result') expect(calls.has(passed.toolUseId)).toBe(true);
          if (passed.type === 'session_result') expect(passed.result).toBeUndefined();
        }
      }),
    );
  });
});
