import { type ContentPart, compactionSummaryText, type ImagePart, toolProtocolIssues } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { buildLlmMessagesFromConversation } from './build-llm-messages.js';
import { estimateTokens } from './estimate-tokens.js';
import { assistant, calls, compaction, log, result, user } from './test-support.js';

const stored = (fileName: string): ImagePart => ({
  type: 'image',
  mediaType: 'image/png',
  source: { type: 'blob', sha256: 'c'.repeat(64), size: 480_000 },
  width: 1280,
  height: 800,
  fileName,
});

const tools = [
  { name: 'read_file', description: 'Read a file', category: 'fs' },
  { name: 'run', description: 'Run a command', category: 'shell' },
];

describe('buildLlmMessagesFromConversation: the cached prefix', () => {
  it('keeps the system prompt and its tool list byte-identical before and after a compaction, the summary after them', () => {
    const drafts = [
      user('Read the config'), // 1
      calls('c1'), // 2
      result('c1', '{"debug":true}'), // 3
      assistant('debug is on'), // 4
      user('And the tests?'), // 5
      calls('c2'), // 6
      result('c2', 'all green'), // 7
      assistant('They pass.'), // 8
      user('Thanks'), // 9
    ];
    const params = { mode: 'agent' as const, agent: { name: 'Ada', role: 'Reviewer' }, tools };
    const before = buildLlmMessagesFromConversation({ ...params, messages: log(...drafts) });
    const after = buildLlmMessagesFromConversation({
      ...params,
      messages: log(...drafts, compaction(1, 4, 'Read the config: debug is on.')),
    });

    expect(JSON.stringify(after.messages[0])).toBe(JSON.stringify(before.messages[0]));
    for (const tool of tools) expect(after.messages[0]?.content).toContain(tool.name);
    // The summary sits right after the prefix; what follows the range is sent as it was.
    expect(after.messages[1]).toEqual({
      role: 'user',
      content: compactionSummaryText('Read the config: debug is on.'),
    });
    expect(JSON.stringify(after.messages.slice(2))).toBe(JSON.stringify(before.messages.slice(5)));
  });
});

describe('buildLlmMessagesFromConversation: images and files', () => {
  it('sends user and tool parts in place, referencing their blobs, and leaves the log as it was', () => {
    const shot = stored('shot.png');
    const pdf: ContentPart = {
      type: 'file',
      mediaType: 'application/pdf',
      source: { type: 'blob', sha256: 'd'.repeat(64), size: 90_000 },
      fileName: 'spec.pdf',
    };
    const messages = log(
      user('x', { content: [{ type: 'text', text: 'What is wrong here?' }, shot, pdf] }),
      calls('c1'),
      result('c1', 'x', { content: [{ type: 'text', text: 'Read 1 image' }, stored('read.png')] }),
      assistant('The button overlaps the form.'),
    );
    const snapshot = structuredClone(messages);
    const built = buildLlmMessagesFromConversation({ messages, mode: 'agent' });

    expect(built.messages[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'What is wrong here?' }, shot, pdf],
    });
    expect(built.messages[3]).toMatchObject({
      role: 'tool',
      content: [{ type: 'text', text: 'Read 1 image' }, stored('read.png')],
    });
    expect(toolProtocolIssues(built.messages)).toEqual([]);
    expect(messages).toEqual(snapshot);
  });

  it("estimates chars / 4 over text and parts' placeholders, not over the number of parts", () => {
    const message = {
      role: 'user' as const,
      content: [{ type: 'text' as const, text: 'a'.repeat(400) }, stored('s.png')],
    };
    // 400 characters of text and "[image: s.png]" (14), joined by a newline.
    expect(estimateTokens([message])).toBe(Math.ceil(415 / 4));
  });
});
