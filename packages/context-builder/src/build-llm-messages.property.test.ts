import {
  type ConversationMessage,
  contentText,
  fullOutputMarker,
  INTERRUPTED_TOOL_RESULT_TEXT,
  isIncludedInContext,
  compactionSummaryText as summaryTextOf,
  toolProtocolIssues,
} from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latestCompaction } from './apply-compaction.js';
import { buildLlmMessagesFromConversation } from './build-llm-messages.js';
import { composeSystemPrompt } from './compose-system-prompt.js';
import { repairToolPairs } from './repair-tool-pairs.js';
import { CREATED_AT, toolCall } from './test-support.js';

// Random logs shaped like real ones: users, assistants with 0–3 tool calls, results in random
// order, missing, repeated, late or orphaned, errors, hidden and display-only messages, system
// notes, offloaded outputs, and compaction records over random ranges.

type Step =
  | { kind: 'user'; hidden: boolean }
  | { kind: 'assistant'; calls: number; hidden: boolean; error: boolean }
  | { kind: 'answers'; reverse: boolean; skip: number }
  | { kind: 'result'; pick: number; hidden: boolean; offloaded: boolean }
  | { kind: 'orphan' }
  | { kind: 'note' }
  | { kind: 'thinking' }
  | { kind: 'compaction'; from: number; length: number; hidden: boolean; ranged: boolean };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('user' as const), hidden: fc.boolean() }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('assistant' as const),
      calls: fc.integer({ min: 0, max: 3 }),
      hidden: fc.boolean(),
      error: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('answers' as const), reverse: fc.boolean(), skip: fc.nat(4) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('result' as const),
      pick: fc.nat(),
      hidden: fc.boolean(),
      offloaded: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('note' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('thinking' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compaction' as const),
      from: fc.nat(),
      length: fc.nat(),
      hidden: fc.boolean(),
      ranged: fc.oneof(fc.constant(true), fc.boolean()),
    }),
  },
);

function toLog(steps: Step[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  const allCalls: string[] = [];
  let lastCalls: string[] = [];
  let nextCall = 0;
  const add = (message: Omit<ConversationMessage, 'id' | 'createdAt' | 'seq'>) => {
    const seq = messages.length + 1;
    messages.push({ ...message, id: `m${seq}`, createdAt: CREATED_AT, seq } as ConversationMessage);
  };
  const addResult = (callId: string, hidden = false, offloaded = false) => {
    const ref = `tool-results/conv/m${messages.length + 1}.txt`;
    add({
      role: 'tool',
      tool_call_id: callId,
      content: offloaded ? `preview of ${callId}` : `result of ${callId}`,
      partType: 'tool_result',
      ...(hidden ? { includeInContext: false } : {}),
      ...(offloaded ? { fullOutputPath: ref } : {}),
    });
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'user':
        add({ role: 'user', content: 'question', ...(step.hidden ? { includeInContext: false } : {}) });
        break;
      case 'assistant': {
        const ids = Array.from({ length: step.calls }, () => `c${nextCall++}`);
        allCalls.push(...ids);
        if (ids.length > 0) lastCalls = ids;
        add({
          role: 'assistant',
          content: ids.length > 0 ? null : 'answer',
          ...(ids.length > 0 ? { tool_calls: ids.map((id) => toolCall(id)) } : {}),
          ...(step.error ? { partType: 'error', errorCode: 'LLM_UNAVAILABLE' } : {}),
          ...(step.hidden ? { includeInContext: false } : {}),
        });
        break;
      }
      case 'answers': {
        const ids = step.reverse ? [...lastCalls].reverse() : lastCalls;
        ids.forEach((id, index) => {
          if (index !== step.skip) addResult(id);
        });
        break;
      }
      case 'result':
        addResult(allCalls[step.pick % Math.max(1, allCalls.length)] ?? 'ghost', step.hidden, step.offloaded);
        break;
      case 'orphan':
        addResult(`ghost-${messages.length}`);
        break;
      case 'note':
        add({ role: 'system', content: 'note' });
        break;
      case 'thinking':
        add({ role: 'assistant', content: 'hmm', partType: 'thinking' });
        break;
      case 'compaction': {
        const seq = messages.length + 1;
        const fromSeq = 1 + (step.from % seq);
        const toSeq = fromSeq + (step.length % (seq - fromSeq + 1));
        add({
          role: 'system',
          partType: 'compaction',
          content: `summary ${fromSeq}-${toSeq}`,
          ...(step.ranged ? { compaction: { fromSeq, toSeq } } : {}),
          ...(step.hidden ? { includeInContext: false } : {}),
        });
        break;
      }
    }
  }
  return messages;
}

const logArbitrary = fc.array(stepArbitrary, { maxLength: 60, size: 'medium' }).map(toLog);

describe('buildLlmMessagesFromConversation: properties', () => {
  it('always gives a protocol-valid request, system prompt first', () => {
    fc.assert(
      fc.property(
        logArbitrary,
        fc.constantFrom('chat', 'agent', 'run') as fc.Arbitrary<'chat' | 'agent' | 'run'>,
        (log, mode) => {
          const built = buildLlmMessagesFromConversation({ messages: log, mode });
          expect(toolProtocolIssues(built.messages)).toEqual([]);
          expect(built.messages[0]).toEqual({ role: 'system', content: composeSystemPrompt({ mode }) });
          expect(built.sourceSeqs[0]).toBeUndefined();
          expect(built.sourceSeqs).toHaveLength(built.messages.length);
          expect(
            built.messages
              .slice(1)
              .some((message) => message.role === 'system' && message.content !== 'note'),
          ).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sends only visible messages outside the applied range, in log order, each result after its call', () => {
    fc.assert(
      fc.property(logArbitrary, (log) => {
        const built = buildLlmMessagesFromConversation({ messages: log, mode: 'agent' });
        const bySeq = new Map(log.map((message) => [message.seq, message]));
        const range = latestCompaction(log)?.compaction;
        const seen = new Set<number>();
        const callSeq = new Map<string, number>();
        let lastNonTool = 0;
        built.messages.forEach((message, index) => {
          const seq = built.sourceSeqs[index];
          // The summary stands for its range (its seq is the range's first); checked elsewhere.
          if (
            seq === undefined ||
            message.content === summaryTextOf(contentText(latestCompaction(log)?.content))
          )
            return;
          const source = bySeq.get(seq) as ConversationMessage;
          expect(isIncludedInContext(source)).toBe(true);
          expect(source.partType).not.toBe('compaction');
          if (range !== undefined) expect(seq < range.fromSeq || seq > range.toSeq).toBe(true);
          expect(message.role).toBe(source.role);
          expect(seen.has(seq)).toBe(false);
          seen.add(seq);
          if (message.role === 'tool') {
            // Results may move up to their call, never before it.
            expect(seq).toBeGreaterThan(callSeq.get(message.tool_call_id) as number);
            if (source.fullOutputPath !== undefined) {
              expect(message.content).toContain(fullOutputMarker(source.fullOutputPath).trim());
            }
          } else {
            expect(seq).toBeGreaterThan(lastNonTool);
            lastNonTool = seq;
            if (message.role === 'assistant')
              for (const call of message.tool_calls ?? []) callSeq.set(call.id, seq);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps its counts consistent', () => {
    fc.assert(
      fc.property(logArbitrary, (log) => {
        const { stats, messages, sourceSeqs } = buildLlmMessagesFromConversation({
          messages: log,
          mode: 'chat',
        });
        expect(stats.included + stats.excluded + stats.compacted + stats.dropped).toBe(log.length);
        expect(messages.length).toBe(1 + stats.included + stats.repaired);
        // Every message from the log has its seq, the summary the first seq of its range.
        expect(sourceSeqs.filter((seq) => seq !== undefined).length).toBe(stats.included);
        const added = messages.filter(
          (message, index) =>
            sourceSeqs[index] === undefined &&
            message.role === 'tool' &&
            message.content === INTERRUPTED_TOOL_RESULT_TEXT,
        );
        expect(added.length).toBe(stats.repaired);
        expect(stats.tokens).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a repaired request as it is', () => {
    fc.assert(
      fc.property(logArbitrary, (log) => {
        const { messages } = buildLlmMessagesFromConversation({ messages: log, mode: 'chat' });
        const again = repairToolPairs(messages);
        expect(again.messages).toEqual(messages);
        expect(again).toMatchObject({ repaired: 0, dropped: 0 });
      }),
      { numRuns: 200 },
    );
  });
});
