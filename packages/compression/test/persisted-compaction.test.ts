import { buildLlmMessagesFromConversation } from '@cairn/context-builder';
import { type ConversationMessage, toolProtocolIssues } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { CompressionPipeline, createCompactionRecord, type Summarizer } from '../src/index.js';
import { testTokenizer } from './conversation-fixtures.js';

// Seed 7-5 with persisted compaction: load → build → compress (summarising) → append the summary as
// a compaction record → the next load sends the summary and does not summarise again.

const CONVERSATION = 'conv-1';
let next = 0;
const message = (fields: Omit<ConversationMessage, 'id' | 'createdAt'>): ConversationMessage => ({
  id: `m${++next}`,
  createdAt: new Date().toISOString(),
  ...fields,
});

function turnOf(index: number): ConversationMessage[] {
  const id = `call_${index}`;
  return [
    message({ role: 'user', content: `Question ${index}: ${'why '.repeat(40)}` }),
    message({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'grep', arguments: '{}' } }],
    }),
    message({ role: 'tool', tool_call_id: id, content: `match ${index} `.repeat(30) }),
    message({ role: 'assistant', content: `Answer ${index}: ${'because '.repeat(40)}` }),
  ];
}

describe('persisted compaction', () => {
  it('summarises once, stores the summary as a record over a seq range, and reuses it on the next load', async () => {
    const store = createMemoryConversationStore();
    await store.append(CONVERSATION, Array.from({ length: 12 }, (_, index) => turnOf(index)).flat());
    const summaries: number[] = [];
    const summarizer: Summarizer = {
      summarize: async ({ messages }) => {
        summaries.push(messages.length);
        return `The user asked ${messages.filter((m) => m.role === 'user').length} questions about grep results.`;
      },
    };
    const build = async () =>
      buildLlmMessagesFromConversation({
        messages: await store.load(CONVERSATION),
        mode: 'agent',
        settings: { tokenizer: testTokenizer },
      });
    const first = await build();
    const pipeline = new CompressionPipeline({
      tokenizer: testTokenizer,
      tokenBudget: Math.floor(testTokenizer.count(first.messages) / 0.9),
      minRecentMessages: 8,
      summarizer,
    });
    const compressed = await pipeline.compressIfNeeded(first.messages);
    expect(compressed.compressed).toBe(true);
    const [summary] = compressed.summaries;
    if (summary === undefined) throw new Error('expected a summary');

    const record = createCompactionRecord({
      id: 'compaction-1',
      createdAt: new Date().toISOString(),
      summary,
      sourceSeqs: first.sourceSeqs,
    });
    expect(record).toMatchObject({ role: 'system', partType: 'compaction', compaction: { fromSeq: 1 } });
    await store.append(CONVERSATION, [record as ConversationMessage]);

    // The next load: the summary stands in for its range, and the request fits without summarising again.
    const second = await build();
    expect(second.stats.compacted).toBe(record?.compaction?.toSeq);
    expect(second.messages.map((m) => m.content)).toEqual(compressed.messages.map((m) => m.content));
    expect(toolProtocolIssues(second.messages)).toEqual([]);
    const again = await pipeline.compressIfNeeded(second.messages);
    expect(again.compressed).toBe(false);
    expect(summaries).toHaveLength(1);
  });

  it('a later summary that takes in the earlier one covers the earlier range too', async () => {
    const store = createMemoryConversationStore();
    await store.append(CONVERSATION, Array.from({ length: 12 }, (_, index) => turnOf(index)).flat());
    await store.append(CONVERSATION, [
      message({
        role: 'system',
        content: 'First summary.',
        partType: 'compaction',
        compaction: { fromSeq: 1, toSeq: 8 },
      }),
    ]);
    const built = buildLlmMessagesFromConversation({
      messages: await store.load(CONVERSATION),
      mode: 'agent',
    });
    // The summary is the second message (after the prompt) and maps to the first seq it covers.
    expect(built.sourceSeqs[1]).toBe(1);
    const record = createCompactionRecord({
      id: 'compaction-2',
      createdAt: new Date().toISOString(),
      summary: { text: 'Second summary.', fromIndex: 1, toIndex: 5, tokensBefore: 100, tokensAfter: 10 },
      sourceSeqs: built.sourceSeqs,
    });
    expect(record?.compaction).toMatchObject({ fromSeq: 1, toSeq: built.sourceSeqs[5] });
  });
});
