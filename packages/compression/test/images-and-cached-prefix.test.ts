import { randomBytes } from 'node:crypto';
import { buildLlmMessagesFromConversation } from '@cairn/context-builder';
import {
  type ConversationMessage,
  createImagePart,
  type ModelMessage,
  toolProtocolIssues,
} from '@cairn/core';
import { createMemoryConversationStore, resolveContentParts } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import {
  CompressionPipeline,
  createCompactionRecord,
  createTokenizer,
  type Summarizer,
} from '../src/index.js';

// The whole path: a stored conversation with screenshots → the request → compression → the bytes
// read back for the adapter. The store keeps the log; only the request loses old images' bytes.

const CONVERSATION = 'conv-images';
const createdAt = '2026-11-27T06:00:00.000Z';
const tools = [
  { name: 'read_file', description: 'Read a file', category: 'fs' },
  { name: 'run', description: 'Run a command', category: 'shell' },
];

// A 1600 × 1000 PNG (its IHDR says so) of 200 KB: the store moves its bytes to a blob.
function screenshotBytes(): Uint8Array {
  const bytes = randomBytes(200_000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  bytes.set([0, 0, 0x06, 0x40, 0, 0, 0x03, 0xe8], 16);
  return bytes;
}

function turns(count: number): ConversationMessage[] {
  return Array.from({ length: count }, (_, index): ConversationMessage[] => [
    {
      id: `u${index}`,
      role: 'user',
      createdAt,
      content: [
        { type: 'text', text: `Screen ${index}: is the layout right?` },
        createImagePart(screenshotBytes(), { fileName: `screen-${index}.png` }),
      ],
    },
    { id: `a${index}`, role: 'assistant', createdAt, content: `Screen ${index}: the footer overlaps.` },
  ]).flat();
}

const build = async (store: ReturnType<typeof createMemoryConversationStore>) =>
  buildLlmMessagesFromConversation({
    messages: await store.load(CONVERSATION),
    mode: 'agent',
    tools,
  });

const imagesOf = (messages: readonly ModelMessage[]) =>
  messages.flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((part) => part.type === 'image') : [],
  );

describe('images from the store to the request', () => {
  it("drops old screenshots' bytes from the request only, keeps the latest, and reads the kept ones back", async () => {
    const store = createMemoryConversationStore();
    await store.append(CONVERSATION, turns(8));
    const loaded = await store.load(CONVERSATION);
    const built = await build(store);
    expect(imagesOf(built.messages)).toHaveLength(8);

    const tokenizer = createTokenizer('claude-sonnet-4-5');
    const pipeline = new CompressionPipeline({
      tokenizer,
      tokenBudget: Math.floor(tokenizer.count(built.messages) / 0.9),
    });
    const result = await pipeline.compressIfNeeded(built.messages);
    expect(result.compressed).toBe(true);
    expect(result.steps.map((step) => step.step)).toEqual(['drop-old-media']);
    const kept = imagesOf(result.messages);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(8);
    expect(kept.at(-1)).toMatchObject({ fileName: 'screen-7.png' });
    expect(JSON.stringify(result.messages)).toContain(
      '[image: screen-0.png — removed from context to save space]',
    );
    expect(toolProtocolIssues(result.messages)).toEqual([]);

    // The adapter gets the kept images' bytes; the store's log is as it was.
    const resolved = await resolveContentParts(store, CONVERSATION, result.messages);
    expect(
      imagesOf(resolved).every((part) => (part as { source: { type: string } }).source.type === 'base64'),
    ).toBe(true);
    expect(await store.load(CONVERSATION)).toEqual(loaded);
  });

  it('keeps the system prompt and its tool list byte-identical through a compaction, before and after it is persisted', async () => {
    const store = createMemoryConversationStore();
    await store.append(CONVERSATION, turns(10));
    const first = await build(store);
    const summarizer: Summarizer = { summarize: async () => 'The user showed screens; footers overlapped.' };
    const tokenizer = createTokenizer('claude-sonnet-4-5');
    const pipeline = new CompressionPipeline({
      tokenizer,
      tokenBudget: Math.floor(tokenizer.count(first.messages) / 0.9),
      targetUsage: 0.1,
      triggerThreshold: 0.5,
      minRecentMessages: 2,
      summarizer,
    });
    const compressed = await pipeline.compressIfNeeded(first.messages);
    expect(compressed.steps.map((step) => step.step)).toContain('summarize');
    const [summary] = compressed.summaries;
    if (summary === undefined) throw new Error('expected a summary');
    const record = createCompactionRecord({
      id: 'compaction-1',
      createdAt,
      summary,
      sourceSeqs: first.sourceSeqs,
    });
    await store.append(CONVERSATION, [record as ConversationMessage]);
    const second = await build(store);

    const prefix = JSON.stringify(first.messages[0]);
    expect(prefix).toContain('read_file');
    expect(JSON.stringify(compressed.messages[0])).toBe(prefix);
    expect(JSON.stringify(second.messages[0])).toBe(prefix);
    // The summary follows the prefix in both the request compression made and the next load's.
    expect(compressed.messages[1]?.content).toContain('footers overlapped');
    expect(second.messages[1]?.content).toContain('footers overlapped');
  });
});
