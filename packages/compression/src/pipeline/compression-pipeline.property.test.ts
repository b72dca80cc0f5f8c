import { contentText, type ModelMessage, toolProtocolIssues } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationArbitrary, testTokenizer } from '../../test/conversation-fixtures.js';
import { CompressionPipeline } from './compression-pipeline.js';
import type { Summarizer } from './summarizer.js';

const summarizer: Summarizer = {
  summarize: async ({ messages }) => `summary of ${messages.length} messages`,
};

// What identifies a message whatever compression did to its text: its role and call ids.
const identity = (message: ModelMessage) =>
  message.role === 'tool'
    ? `tool:${message.tool_call_id}`
    : message.role === 'assistant' && message.tool_calls
      ? `calls:${message.tool_calls.map((call) => call.id).join(',')}`
      : `${message.role}:${message.content}`;

const isSubsequence = (part: string[], whole: string[]) => {
  let at = 0;
  for (const item of whole) if (item === part[at]) at++;
  return at === part.length;
};

const written = (message: ModelMessage) =>
  message.role === 'user' &&
  /^\[(Summary of the earlier conversation|\d+ earlier messages were left out)/.test(
    contentText(message.content),
  );

// Where the part compression must leave alone starts: the recent window, moved back so no
// assistant message is cut from its results, or the latest request when that is earlier.
const protectedFrom = (messages: readonly ModelMessage[], minRecentMessages: number) => {
  let start = Math.max(1, messages.length - minRecentMessages);
  while (start > 1 && messages[start]?.role === 'tool') start--;
  return Math.min(
    start,
    messages.findLastIndex((message) => message.role === 'user'),
  );
};

describe('CompressionPipeline properties', () => {
  it('keeps any conversation protocol-valid, in order, with its system prompt, recent window and latest request', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary,
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        async (messages, fill, minRecentMessages, summarise) => {
          const tokens = testTokenizer.count(messages);
          const pipeline = new CompressionPipeline({
            tokenizer: testTokenizer,
            tokenBudget: Math.max(1, Math.floor(tokens / fill)),
            minRecentMessages,
            ...(summarise ? { summarizer } : {}),
          });
          const result = await pipeline.compressIfNeeded(messages);
          const out = result.messages;
          expect(toolProtocolIssues(out)).toEqual([]);
          expect(out[0]).toBe(messages[0]);
          const kept = out.filter((message) => !written(message)).map(identity);
          expect(isSubsequence(kept, messages.map(identity))).toBe(true);
          const lastUser = messages.findLastIndex((message) => message.role === 'user');
          const recent = messages.slice(Math.min(lastUser, Math.max(1, messages.length - minRecentMessages)));
          expect(out.slice(out.length - recent.length)).toEqual(recent);
          if (result.compressed === true)
            expect(result.after.usagePercent).toBeLessThanOrEqual(pipeline.targetUsage);
          // Idempotent: a compressed history is left as it is.
          const again = await pipeline.compressIfNeeded(out);
          expect(again.messages).toEqual(out);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('in the loop, never changes a message from loopStartIndex on', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary,
        fc.double({ min: 0.3, max: 1.5, noNaN: true }),
        fc.nat(),
        async (messages, fill, seed) => {
          const loopStart = 1 + (seed % messages.length);
          const pipeline = new CompressionPipeline({
            tokenizer: testTokenizer,
            tokenBudget: Math.max(1, Math.floor(testTokenizer.count(messages) / fill)),
            minRecentMessages: 2,
          });
          const result = await pipeline.compressHistoricalMessages(messages, loopStart);
          const tail = result.messages.slice(result.newLoopStartIndex);
          expect(tail).toHaveLength(messages.length - loopStart);
          tail.forEach((message, index) => {
            expect(message).toBe(messages[loopStart + index]);
          });
          expect(result.messages[0]).toBe(messages[0]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('forced, never touches the system prompt, the recent window or the latest request, keeps calls with their results, and drops nothing with a summariser', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary,
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        async (messages, fill, minRecentMessages, summarise) => {
          const pipeline = new CompressionPipeline({
            tokenizer: testTokenizer,
            tokenBudget: Math.max(1, Math.floor(testTokenizer.count(messages) / fill)),
            minRecentMessages,
            ...(summarise ? { summarizer } : {}),
          });
          const result = await pipeline.compressNow(messages);
          const out = result.messages;
          expect(toolProtocolIssues(out)).toEqual([]);
          expect(out[0]).toBe(messages[0]);
          const kept = messages.slice(protectedFrom(messages, minRecentMessages));
          const tail = out.slice(out.length - kept.length);
          tail.forEach((message, index) => {
            expect(message).toBe(kept[index]);
          });
          const original = out.filter((message) => !written(message)).map(identity);
          expect(isSubsequence(original, messages.map(identity))).toBe(true);
          expect(result.after.tokens).toBeLessThanOrEqual(result.before.tokens);
          if (result.compressed === false) {
            expect(out).toEqual(messages);
            expect(result.reason).toBeDefined();
          }
          if (!summarise || result.compressed === false) return;
          // Everything before the kept part became one summary, and nothing is left to compress.
          expect(out).toHaveLength(kept.length + 2);
          expect(result.steps.map((step) => step.step)).not.toContain('drop-turns');
          expect((await pipeline.compressNow(out)).compressed).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});
