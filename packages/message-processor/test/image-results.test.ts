import { readFileSync } from 'node:fs';
import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import {
  type AgentOutput,
  base64ToBytes,
  type ConversationMessage,
  type ImagePart,
  isValidConversationMessage,
} from '@cairn/core';
import { createMemoryConversationStore, readPartBytes } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createMessageProcessor, toDisplayMessages } from '../src/index.js';

// The real Claude Code 2.1.197 reading an 800×600 PNG (agent-cli's scripts/record-image-fixtures.mjs).
const READ_IMAGE = readFileSync(
  new URL('../../agent-cli/fixtures/real-image/claude-code-read-image.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '');

// The image's bytes, as the CLI printed them.
const PNG_BASE64: string = JSON.parse(READ_IMAGE.find((line) => line.includes('"tool_result"')) ?? '{}')
  .message.content[0].content[0].source.data;

const PNG_BYTES = base64ToBytes(PNG_BASE64);

const CLOCK = new Date('2026-11-27T12:00:00.000Z');

function events(lines: readonly string[]): AgentOutput[] {
  const converter = createClaudeCodeConverter({ now: () => CLOCK });
  return [...lines.flatMap((line) => converter.push(line)), ...converter.end()];
}

function process(input: readonly AgentOutput[]) {
  const log: ConversationMessage[] = [];
  const display: ConversationMessage[] = [];
  let next = 0;
  const processor = createMessageProcessor({
    onLogMessage: (message) => log.push(message),
    onDisplayMessage: (message) => display.push(message),
    generateId: () => `msg-${++next}`,
    now: () => CLOCK.getTime(),
  });
  for (const event of input) processor.push(event);
  processor.end();
  return { log, display };
}

describe("Claude Code's Read of a PNG, through the processor and a real store", () => {
  it('gives a tool message whose content is the image part, bytes inline until stored', () => {
    const { log } = process(events(READ_IMAGE));
    const tool = log.find((message) => message.role === 'tool');
    expect(tool).toMatchObject({
      role: 'tool',
      toolName: 'Read',
      isError: false,
      content: [
        { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: PNG_BASE64 }, width: 800 },
      ],
    });
    // The structured result keeps the CLI's size facts, not a second copy of the bytes.
    expect(JSON.stringify(tool?.structuredResult)).not.toContain(PNG_BASE64.slice(0, 100));
    expect(log.every(isValidConversationMessage)).toBe(true);
  });

  it('stores a blob reference, not base64, and reads the same bytes back', async () => {
    const store = createMemoryConversationStore();
    const { log } = process(events(READ_IMAGE));
    for (const message of log) await store.append('read-image', [message]);
    const stored = await store.load('read-image');
    const text = JSON.stringify(stored);
    expect(text).not.toContain(PNG_BASE64.slice(0, 100));
    expect(text.length).toBeLessThan(PNG_BASE64.length);
    const part = stored.find((message) => message.role === 'tool')?.content as ImagePart[];
    expect(part).toEqual([
      {
        type: 'image',
        mediaType: 'image/png',
        source: { type: 'blob', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: PNG_BYTES.length },
        width: 800,
        height: 600,
      },
    ]);
    const [image] = part as [ImagePart];
    expect(await readPartBytes(store, 'read-image', image)).toEqual(PNG_BYTES);
  });

  it('shows one execution "Read shot.png → image 800×600" exposing the stored parts', async () => {
    const store = createMemoryConversationStore();
    const { log, display: live } = process(events(READ_IMAGE));
    for (const message of log) await store.append('read-image', [message]);
    const stored = await store.load('read-image');
    const display = toDisplayMessages(stored);
    const execution = display.find((message) => message.partType === 'tool_execution');
    expect(execution?.content).toBe('Read shot.png → image 800×600');
    expect(execution?.toolExecution).toMatchObject({
      toolName: 'Read',
      output: '[image]',
      summary: 'Read shot.png → image 800×600',
      content: [{ type: 'image', source: { type: 'blob' }, width: 800, height: 600 }],
    });
    // The live view (before the store) says the same; its part still has the bytes inline.
    const liveExecution = live.find((message) => message.partType === 'tool_execution');
    expect(liveExecution?.content).toBe('Read shot.png → image 800×600');
    expect(liveExecution?.toolExecution?.content?.[0]).toMatchObject({ source: { type: 'base64' } });
  });

  it('leaves a failed result with parts its failure summary, and text-only results as they were', () => {
    const call: AgentOutput = {
      type: 'tool_use',
      timestamp: CLOCK.toISOString(),
      messageId: 'm1',
      id: 'c1',
      toolName: 'Read',
      input: { file_path: 'a.png' },
    };
    const image = {
      type: 'image' as const,
      mediaType: 'image/png',
      source: { type: 'base64' as const, data: PNG_BASE64 },
    };
    const failed = process([
      call,
      {
        type: 'tool_result',
        timestamp: CLOCK.toISOString(),
        toolUseId: 'c1',
        output: 'too big\n[image]',
        content: [{ type: 'text', text: 'too big' }, image],
        isError: true,
      },
    ]).display.find((message) => message.partType === 'tool_execution');
    expect(failed?.content).toBe('Read a.png — failed: too big');
    const text = process([
      call,
      {
        type: 'tool_result',
        timestamp: CLOCK.toISOString(),
        toolUseId: 'c1',
        output: 'hello',
        isError: false,
      },
    ]).display.find((message) => message.partType === 'tool_execution');
    expect(text?.content).toBe('Read a.png');
    expect(text?.toolExecution).not.toHaveProperty('content');
  });

  it('stores the real user message with an image (stream-json input) as parts', async () => {
    const input = readFileSync(
      new URL('../../agent-cli/fixtures/real-image/claude-code-input-image.jsonl', import.meta.url),
      'utf8',
    ).split('\n');
    const { log } = process(events(input));
    const store = createMemoryConversationStore();
    await store.append('user-image', log);
    const stored = await store.load('user-image');
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(stored[0]).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this screenshot? [scenario:describe-image]' },
        { type: 'image', source: { type: 'blob', size: PNG_BYTES.length }, width: 800, height: 600 },
      ],
    });
    expect(JSON.stringify(stored)).not.toContain(PNG_BASE64.slice(0, 100));
  });
  it('stores a conversation with a 5 MB image read by the tool in under 10 KB of JSON', async () => {
    // The real line, with a 5 MB PNG in place of the small one (the header says 800×600 still).
    const bytes = new Uint8Array(5 * 1024 * 1024);
    bytes.set(PNG_BYTES.subarray(0, 33));
    const big = Buffer.from(bytes).toString('base64');
    const lines = READ_IMAGE.map((line) => line.split(PNG_BASE64).join(big));
    const { log } = process(events(lines));
    const store = createMemoryConversationStore();
    for (const message of log) await store.append('big-image', [message]);
    const stored = await store.load('big-image');
    expect(JSON.stringify(stored).length).toBeLessThan(10_000);
    const tool = stored.find((message) => message.role === 'tool');
    expect(tool?.content).toEqual([
      expect.objectContaining({ source: expect.objectContaining({ type: 'blob', size: bytes.length }) }),
    ]);
    const [part] = (tool?.content ?? []) as [ImagePart];
    // Compared as one buffer: an element-wise deep equality of 5 MB takes a minute.
    const read = await readPartBytes(store, 'big-image', part);
    expect(Buffer.from(read).equals(bytes)).toBe(true);
  });
  it('shows the real Read of a PDF as "Read report.pdf → PDF", the PDF a part of the stored result', async () => {
    const lines = readFileSync(
      new URL('../../agent-cli/fixtures/real-image/claude-code-read-pdf.jsonl', import.meta.url),
      'utf8',
    ).split('\n');
    const { log } = process(events(lines));
    const store = createMemoryConversationStore();
    for (const message of log) await store.append('read-pdf', [message]);
    const stored = await store.load('read-pdf');
    const tool = stored.find((message) => message.role === 'tool');
    // 389 bytes: under INLINE_DATA_LIMIT, so the store keeps them inline.
    expect(tool?.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^PDF file read: /) },
      expect.objectContaining({ type: 'file', mediaType: 'application/pdf', fileName: 'report.pdf' }),
    ]);
    const execution = toDisplayMessages(stored).find((message) => message.partType === 'tool_execution');
    expect(execution?.content).toBe('Read report.pdf → PDF');
  });
});
