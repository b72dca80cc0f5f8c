import {
  bytesToBase64,
  type ContentPart,
  contentText,
  type ImagePart,
  type ModelMessage,
  toolProtocolIssues,
} from '@cairn/core';
import { ScriptedModel } from '@cairn/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenizer } from '../tokenizers/index.js';
import { CompressionPipeline, removedPartPlaceholder } from './compression-pipeline.js';
import { createModelSummarizer, type Summarizer } from './summarizer.js';

// A screenshot of 1500 × 1000 px: 1,600 tokens to Claude (its size cap), whatever its bytes.
const BYTES = bytesToBase64(new Uint8Array(3_000).fill(7));
const screenshot = (name: string): ImagePart => ({
  type: 'image',
  mediaType: 'image/png',
  source: { type: 'base64', data: BYTES },
  width: 1500,
  height: 1000,
  fileName: name,
});

/** A system prompt, then `turns` turns: a user message with a screenshot, the assistant's answer. */
function screenshotConversation(turns: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'system', content: 'You review UI screenshots.' }];
  for (let index = 0; index < turns; index++) {
    messages.push(
      {
        role: 'user',
        content: [
          { type: 'text', text: `What changed in screen ${index}?` },
          screenshot(`screen-${index}.png`),
        ],
      },
      { role: 'assistant', content: `Screen ${index}: the header moved left by ${index} px.` },
    );
  }
  return messages;
}

const parts = (message: ModelMessage | undefined): ContentPart[] =>
  Array.isArray(message?.content) ? message.content : [];
const hasImage = (message: ModelMessage | undefined) => parts(message).some((part) => part.type === 'image');

const pipelineAt = (messages: ModelMessage[], usage: number, options = {}) => {
  const tokenizer = createTokenizer('claude-sonnet-4-5');
  return new CompressionPipeline({
    tokenizer,
    tokenBudget: Math.floor(tokenizer.count(messages) / usage),
    ...options,
  });
};

const noSummary: Summarizer = {
  summarize: async () => {
    throw new Error('the summariser should not be needed');
  },
};

describe('CompressionPipeline with images', () => {
  it("fits a conversation of big screenshots by dropping old images' bytes, oldest first, keeping the last turn's", async () => {
    const messages = screenshotConversation(8);
    const log = structuredClone(messages);
    const result = await pipelineAt(messages, 0.95, { summarizer: noSummary }).compressIfNeeded(messages);

    expect(result.compressed).toBe(true);
    expect(result.after.usagePercent).toBeLessThanOrEqual(0.5);
    expect(result.steps.map((step) => step.step)).toEqual(['drop-old-media']);
    // Every message is still there, in place, with its text: only image bytes gave way.
    expect(result.messages).toHaveLength(messages.length);
    expect(result.messages.map((message) => contentText(message.content).split('\n')[0])).toEqual(
      messages.map((message) => contentText(message.content).split('\n')[0]),
    );
    const users = result.messages.filter((message) => message.role === 'user');
    const kept = users.map(hasImage);
    // Oldest dropped first: once an image is kept, every later one is too.
    expect(kept.indexOf(true)).toBeGreaterThan(0);
    expect(kept.slice(kept.indexOf(true)).every(Boolean)).toBe(true);
    expect(result.messages.at(-2)).toBe(messages.at(-2));
    expect(parts(users[0])[1]).toEqual({
      type: 'text',
      text: '[image: screen-0.png — removed from context to save space]',
    });
    // The log (the messages given) is never changed.
    expect(messages).toEqual(log);
  });

  it("keeps the latest request's images even when that leaves the request over the target", async () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'You review UI screenshots.' },
      { role: 'user', content: [screenshot('a.png'), screenshot('b.png'), screenshot('c.png')] },
    ];
    const result = await pipelineAt(messages, 0.95).compressIfNeeded(messages);
    expect(result.compressed).toBe('partial');
    expect(result.messages).toEqual(messages);
  });

  it('drops an image a tool returned, keeping the call and its result paired', async () => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
    for (let index = 0; index < 6; index++) {
      const id = `call_${index}`;
      messages.push(
        { role: 'user', content: `Open shot ${index}.` },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id, type: 'function', function: { name: 'Read', arguments: `{"path":"s${index}.png"}` } },
          ],
        },
        { role: 'tool', tool_call_id: id, content: [screenshot(`s${index}.png`)] },
        { role: 'assistant', content: `Shot ${index} shows a login form.` },
      );
    }
    const result = await pipelineAt(messages, 0.9).compressIfNeeded(messages);
    expect(result.steps[0]?.step).toBe('drop-old-media');
    expect(toolProtocolIssues(result.messages)).toEqual([]);
    expect(result.messages).toHaveLength(messages.length);
    expect(parts(result.messages[3])).toEqual([
      { type: 'text', text: removedPartPlaceholder(screenshot('s0.png')) },
    ]);
    // The latest turn's result keeps its image.
    expect(result.messages.at(-2)).toBe(messages.at(-2));
  });

  it("leaves a running loop's images alone in in-loop compression", async () => {
    const messages = screenshotConversation(6);
    const loopStart = messages.length - 1;
    messages.push({ role: 'tool', tool_call_id: 'x', content: [screenshot('loop.png')] });
    messages[loopStart] = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'x', type: 'function', function: { name: 'Read', arguments: '{}' } }],
    };
    const result = await pipelineAt(messages, 0.95).compressHistoricalMessages(messages, loopStart);
    expect(result.messages.slice(result.newLoopStartIndex)).toEqual(messages.slice(loopStart));
    expect(result.steps[0]?.step).toBe('drop-old-media');
  });

  it('sends the summariser placeholders, never image bytes', async () => {
    const model = new ScriptedModel({ turns: [{ text: 'They reviewed screens 0 to 5.' }] });
    const messages = screenshotConversation(6);
    // Text heavy enough that dropping the images is not enough: the old turns are summarised.
    for (const message of messages) {
      if (message.role === 'assistant') message.content = `${message.content} ${'detail '.repeat(3_000)}`;
    }
    const result = await pipelineAt(messages, 0.95, {
      summarizer: createModelSummarizer(model),
      minRecentMessages: 2,
    }).compressIfNeeded(messages);
    expect(result.steps.map((step) => step.step)).toEqual(['drop-old-media', 'summarize']);
    expect(model.requests).toHaveLength(1);
    const sent = JSON.stringify(model.requests[0]);
    expect(sent).not.toContain(BYTES.slice(0, 64));
    expect(sent).toContain('[image: screen-0.png');
    for (const message of model.requests[0]?.messages ?? []) expect(typeof message.content).toBe('string');
  });

  it('hands any summariser the turns it summarises with their images already placeholders', async () => {
    const seen: ModelMessage[][] = [];
    const capturing: Summarizer = {
      summarize: async ({ messages }) => {
        seen.push([...messages]);
        return 'Screens were reviewed.';
      },
    };
    const messages = screenshotConversation(6);
    for (const message of messages) {
      if (message.role === 'assistant') message.content = `${message.content} ${'detail '.repeat(3_000)}`;
    }
    await pipelineAt(messages, 0.95, { summarizer: capturing, minRecentMessages: 2 }).compressIfNeeded(
      messages,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.some(hasImage)).toBe(false);
    expect(JSON.stringify(seen[0])).not.toContain(BYTES.slice(0, 64));
  });

  it("gives the summariser images' placeholders even when it is handed images (no bytes in its request)", async () => {
    const model = new ScriptedModel({ turns: [{ text: 'A screenshot was shown.' }] });
    await createModelSummarizer(model).summarize({ messages: screenshotConversation(2) });
    const sent = JSON.stringify(model.requests[0]);
    expect(sent).not.toContain(BYTES.slice(0, 64));
    expect(sent).toContain('[image: screen-1.png]');
  });

  it('compressNow turns every image before the latest user turn into its placeholder', async () => {
    const messages = screenshotConversation(3);
    const result = await pipelineAt(messages, 0.1).compressNow(messages);
    expect(result.steps[0]?.step).toBe('drop-old-media');
    expect(result.messages.filter(hasImage)).toEqual([messages.at(-2)]);
  });
});

// Random conversations of screenshots, some returned by tools, at any fill of the budget.
const mediaConversationArb = fc
  .array(
    fc.record({
      images: fc.array(fc.tuple(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 4000 })), {
        maxLength: 2,
      }),
      toolImage: fc.boolean(),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .map((turns) => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'system prompt' }];
    turns.forEach((shape, index) => {
      messages.push({
        role: 'user',
        content: [
          { type: 'text', text: `request ${index}` },
          ...shape.images.map(([width, height], at) => ({
            ...screenshot(`u${index}-${at}.png`),
            width,
            height,
          })),
        ],
      });
      if (shape.toolImage) {
        const id = `c${index}`;
        messages.push(
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id, type: 'function', function: { name: 'Read', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: id, content: [screenshot(`t${index}.png`)] },
        );
      }
      messages.push({ role: 'assistant', content: `answer ${index}` });
    });
    return messages;
  });

const imageNames = (messages: readonly ModelMessage[]) =>
  messages.flatMap((message) =>
    parts(message).flatMap((part) => (part.type === 'image' ? [String(part.fileName)] : [])),
  );

describe('CompressionPipeline with images: properties', () => {
  it('never touches the log or the latest turn, keeps tool pairs, and drops the oldest images first', async () => {
    await fc.assert(
      fc.asyncProperty(
        mediaConversationArb,
        fc.double({ min: 0.2, max: 3, noNaN: true }),
        async (messages, fill) => {
          const log = structuredClone(messages);
          const tokenizer = createTokenizer('claude-sonnet-4-5');
          const pipeline = new CompressionPipeline({
            tokenizer,
            tokenBudget: Math.max(1, Math.floor(tokenizer.count(messages) / fill)),
            minRecentMessages: 0,
          });
          const result = await pipeline.compressIfNeeded(messages);
          const out = result.messages;
          expect(messages).toEqual(log);
          expect(toolProtocolIssues(out)).toEqual([]);
          expect(out[0]).toBe(messages[0]);
          const lastUser = messages.findLastIndex((message) => message.role === 'user');
          const latestTurn = messages.slice(lastUser);
          expect(out.slice(out.length - latestTurn.length)).toEqual(latestTurn);
          if (result.steps.every((step) => step.step === 'drop-old-media')) {
            expect(out).toHaveLength(messages.length);
            const before = imageNames(messages);
            const after = imageNames(out);
            // The images left are the newest: a suffix of those there were.
            expect(after).toEqual(before.slice(before.length - after.length));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
