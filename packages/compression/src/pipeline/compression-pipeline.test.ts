import { CairnError, contentText, type ModelMessage, toolProtocolIssues } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { conversation, testTokenizer, turn } from '../../test/conversation-fixtures.js';
import { CompressionPipeline } from './compression-pipeline.js';
import type { Summarizer } from './summarizer.js';

const pipelineFor = (messages: ModelMessage[], usage: number, options = {}) =>
  new CompressionPipeline({
    tokenizer: testTokenizer,
    // A budget the conversation fills to `usage`.
    tokenBudget: Math.floor(testTokenizer.count(messages) / usage),
    ...options,
  });

const summarizer = (text = 'They discussed files f0 to f9.'): Summarizer & { calls: ModelMessage[][] } => {
  const calls: ModelMessage[][] = [];
  return {
    calls,
    summarize: async ({ messages }) => {
      calls.push([...messages]);
      return text;
    },
  };
};

describe('CompressionPipeline', () => {
  it('measures usage against the budget left for input', () => {
    const messages = conversation(2);
    const pipeline = new CompressionPipeline({
      tokenizer: testTokenizer,
      tokenBudget: 10_000,
      reserveOutputTokens: 2_000,
    });
    const tokens = testTokenizer.count(messages);
    expect(pipeline.getUsage(messages)).toEqual({ tokens, budget: 8_000, usagePercent: tokens / 8_000 });
  });

  it('leaves a history under the trigger alone', async () => {
    const messages = conversation(3);
    const result = await pipelineFor(messages, 0.7).compressIfNeeded(messages);
    expect(result).toMatchObject({ compressed: false, steps: [], reason: 'under the trigger' });
    expect(result.messages).toEqual(messages);
  });

  it('brings a history over 80% to at most 50%: old tool outputs first, then old turns', async () => {
    const messages = conversation(30);
    const pipeline = pipelineFor(messages, 0.9);
    expect(pipeline.shouldCompress(messages)).toBe(true);
    const result = await pipeline.compressIfNeeded(messages);
    expect(result.compressed).toBe(true);
    expect(result.before.usagePercent).toBeCloseTo(0.9, 2);
    expect(result.after.usagePercent).toBeLessThanOrEqual(0.5);
    expect(result.steps.map((step) => step.step)).toEqual(['trim-tool-outputs']);
    expect(result.messages[0]).toBe(messages[0]);
    expect(result.messages.slice(-10)).toEqual(messages.slice(-10));
    expect(toolProtocolIssues(result.messages)).toEqual([]);
    // Outputs were cut, not the calls and answers around them.
    expect(result.messages).toHaveLength(messages.length);
  });

  it('drops whole old turns when trimming is not enough, and says so in their place', async () => {
    const messages = conversation(30, 1, 100);
    const result = await pipelineFor(messages, 0.95).compressIfNeeded(messages);
    expect(result.compressed).toBe(true);
    expect(result.steps.map((step) => step.step)).toEqual(['drop-turns']);
    expect(result.messages[1]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^\[\d+ earlier messages were left out/),
    });
    expect(result.messages[2]?.role).toBe('user');
    expect(toolProtocolIssues(result.messages)).toEqual([]);
  });

  it('summarises the oldest turns with the summariser, and reports what it covers', async () => {
    const messages = conversation(30, 1, 100);
    const writer = summarizer();
    const result = await pipelineFor(messages, 0.95, { summarizer: writer }).compressIfNeeded(messages);
    expect(result.compressed).toBe(true);
    expect(result.steps.map((step) => step.step)).toEqual(['summarize']);
    expect(result.messages[1]).toEqual({
      role: 'user',
      content: expect.stringContaining('They discussed files f0 to f9.'),
    });
    expect(result.messages[1]?.content).toMatch(/^\[Summary of the earlier conversation/);
    const [summary] = result.summaries;
    expect(summary).toMatchObject({ text: 'They discussed files f0 to f9.', fromIndex: 1 });
    expect(writer.calls[0]).toEqual(messages.slice(1, (summary?.toIndex ?? 0) + 1));
    // What follows the summary is the conversation from the first message not summarised.
    expect(result.messages[2]).toBe(messages[(summary?.toIndex ?? 0) + 1]);
  });

  it('keeps the history as it was when the summariser fails, reports it, and never writes the error in', async () => {
    const messages = conversation(30, 1, 100);
    const failing: Summarizer = {
      summarize: () => Promise.reject(new CairnError('LLM_UNAVAILABLE', 'summariser down')),
    };
    const result = await pipelineFor(messages, 0.95, { summarizer: failing }).compressIfNeeded(messages);
    expect(result.steps[0]).toMatchObject({ step: 'summarize', messages: 0, error: 'summariser down' });
    expect(result.steps[1]?.step).toBe('drop-turns');
    expect(JSON.stringify(result.messages)).not.toContain('summariser down');
    expect(result.summaries).toEqual([]);
  });

  it('in the loop, compresses only what precedes the loop, and never the request it works on', async () => {
    const history = conversation(20, 1, 100);
    const request: ModelMessage = { role: 'user', content: 'Now fix the bug.' };
    const loopStart = history.length + 1;
    const loop = turn(99, 8, 100).slice(1);
    const messages = [...history, request, ...loop];
    const pipeline = pipelineFor(messages, 0.9, { minRecentMessages: 4 });
    const result = await pipeline.compressHistoricalMessages(messages, loopStart);
    expect(result.compressed).toBe(true);
    expect(result.messages.slice(result.newLoopStartIndex)).toEqual(loop);
    for (const [index, message] of result.messages.slice(result.newLoopStartIndex).entries()) {
      expect(message).toBe(loop[index]);
    }
    expect(result.messages[result.newLoopStartIndex - 1]).toBe(request);
    expect(result.messages[0]).toBe(messages[0]);
    expect(toolProtocolIssues(result.messages)).toEqual([]);
  });

  it('says why when the target cannot be reached, and does not thrash', async () => {
    const messages = conversation(2, 1, 100);
    // Everything but the system prompt is in the recent window.
    const pipeline = pipelineFor(messages, 0.9, { minRecentMessages: 50 });
    const result = await pipeline.compressIfNeeded(messages);
    expect(result.compressed).toBe('partial');
    expect(result.reason).toMatch(/messages that must stay .* over the target/);
    expect(pipeline.shouldCompress(messages)).toBe(false);
    const again = await pipeline.compressIfNeeded(messages);
    expect(again).toMatchObject({
      compressed: false,
      reason: expect.stringMatching(/last attempt could not reach the target/),
    });
    // Enough new text re-arms it.
    const grown = [...messages, { role: 'user' as const, content: 'x'.repeat(pipeline.budget) }];
    expect(pipeline.shouldCompress(grown)).toBe(true);
  });

  it('refuses settings that make no sense', () => {
    const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    expect(
      () => new CompressionPipeline({ tokenizer: testTokenizer, targetUsage: 0.9, triggerThreshold: 0.8 }),
    ).toThrow(invalid);
    expect(
      () => new CompressionPipeline({ tokenizer: testTokenizer, tokenBudget: 100, reserveOutputTokens: 100 }),
    ).toThrow(invalid);
    expect(() => new CompressionPipeline({ tokenizer: testTokenizer, triggerThreshold: 1.5 })).toThrow(
      invalid,
    );
    expect(() => new CompressionPipeline({ tokenizer: testTokenizer, minRecentMessages: -1 })).toThrow(
      invalid,
    );
  });
});

describe('CompressionPipeline.compressNow', () => {
  const isTrimmed = (message: ModelMessage | undefined) =>
    message?.role === 'tool' &&
    contentText(message.content).includes('more characters of this output were left out');

  it('summarises everything before the recent window, under the trigger too, after trimming old tool outputs', async () => {
    const messages = conversation(6);
    const writer = summarizer();
    const pipeline = pipelineFor(messages, 0.3, { summarizer: writer });
    expect(await pipeline.compressIfNeeded(messages)).toMatchObject({ compressed: false });
    const result = await pipeline.compressNow(messages);
    expect(result.compressed).toBe(true);
    expect(result.steps.map((step) => step.step)).toEqual(['trim-tool-outputs', 'summarize']);
    const [summary] = result.summaries;
    if (summary === undefined) throw new Error('expected a summary');
    expect(summary.fromIndex).toBe(1);
    const kept = messages.slice(summary.toIndex + 1);
    expect(kept.length).toBeGreaterThanOrEqual(10);
    expect(result.messages).toEqual([
      messages[0],
      { role: 'user', content: expect.stringContaining(summary.text) },
      ...kept,
    ]);
    // The summariser read the old turns with their outputs already cut.
    expect(writer.calls).toHaveLength(1);
    expect(writer.calls[0]?.filter((message) => message.role === 'tool').every(isTrimmed)).toBe(true);
    expect(result.after.tokens).toBeLessThan(result.before.tokens);
  });

  it('leaves a conversation that is all recent window alone, and says so', async () => {
    const messages = conversation(1);
    const writer = summarizer();
    const result = await pipelineFor(messages, 0.3, { summarizer: writer }).compressNow(messages);
    expect(result).toMatchObject({
      compressed: false,
      steps: [],
      reason: expect.stringMatching(/^nothing to compress: every message .* recent window/),
    });
    expect(result.messages).toEqual(messages);
    expect(writer.calls).toEqual([]);
  });

  it.each([
    ['fails', { summarize: () => Promise.reject(new Error('summariser down')) }, /summariser down/],
    ['writes more than it replaces', summarizer('x'.repeat(200_000)), /no shorter than the \d+ messages/],
  ])(
    'keeps the history as it was, trimmed outputs too, when the summariser %s',
    async (_case, writer, why) => {
      const messages = conversation(6);
      const result = await pipelineFor(messages, 0.3, { summarizer: writer }).compressNow(messages);
      expect(result).toMatchObject({ compressed: false, steps: [], summaries: [] });
      expect(result.reason).toMatch(/^could not summarise: /);
      expect(result.reason).toMatch(why);
      expect(result.messages).toEqual(messages);
    },
  );

  it('without a summariser, cuts every old tool output but leaves turns out only as far as the target needs', async () => {
    const messages = conversation(6);
    const result = await pipelineFor(messages, 0.3).compressNow(messages);
    expect(result.compressed).toBe(true);
    expect(result.steps.map((step) => step.step)).toEqual(['trim-tool-outputs']);
    expect(result.messages).toHaveLength(messages.length);
    const old = result.messages.slice(0, -10).filter((message) => message.role === 'tool');
    expect(old.length).toBeGreaterThan(0);
    expect(old.every(isTrimmed)).toBe(true);

    // Over the target, the same turns are left out as compressIfNeeded leaves out.
    const long = conversation(30, 1, 100);
    const forced = await pipelineFor(long, 0.95).compressNow(long);
    const needed = await pipelineFor(long, 0.95).compressIfNeeded(long);
    expect(forced.steps.map((step) => step.step)).toEqual(['drop-turns']);
    expect(forced.messages).toEqual(needed.messages);
  });

  it('ignores the thrash guard', async () => {
    // A recent turn too big for the target: an attempt ends partial, and arms the guard.
    const messages = [...conversation(8, 1, 100), ...turn(99, 1, 20_000)];
    const pipeline = pipelineFor(messages, 0.95, { minRecentMessages: 4, summarizer: summarizer() });
    const first = await pipeline.compressIfNeeded(messages);
    expect(first.compressed).toBe('partial');
    // One short turn later, the big turn's request has left the recent window.
    const grown = [...first.messages, ...turn(100, 0, 0)];
    expect(await pipeline.compressIfNeeded(grown)).toMatchObject({
      compressed: false,
      reason: expect.stringMatching(/last attempt could not reach the target/),
    });
    const forced = await pipeline.compressNow(grown);
    expect(forced).toMatchObject({ compressed: 'partial', reason: expect.stringMatching(/over the target/) });
    expect(forced.steps.map((step) => step.step)).toEqual(['summarize']);
    expect(forced.summaries[0]).toMatchObject({ fromIndex: 1, toIndex: 2 });
  });
});
