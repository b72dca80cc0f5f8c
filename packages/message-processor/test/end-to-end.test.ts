import { isValidConversationMessage } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDisplayMessages } from '../src/index.js';
import {
  FIXTURES,
  type FixtureSource,
  GEMINI_CWD,
  PROMPT,
  processChunks,
  readFixture,
} from './fixture-pipeline.js';

// Converter → processor → store → display view, on the real captured transcripts.
async function displayOf(source: FixtureSource, url: URL) {
  const store = createMemoryConversationStore();
  const conversationId = `e2e-${source}`;
  const log = await processChunks(source, [readFixture(url)]);
  // The executor persists the prompt itself (Claude Code does not echo it; Gemini CLI does).
  const prompt = {
    id: 'prompt',
    role: 'user' as const,
    content: PROMPT,
    createdAt: '2026-11-22T12:00:00.000Z',
  };
  const echoed = log[0]?.role === 'user' && log[0].content === PROMPT;
  await store.append(conversationId, [prompt]);
  for (const message of echoed ? log.slice(1) : log) await store.append(conversationId, [message]);
  const stored = await store.load(conversationId);
  expect(stored.every(isValidConversationMessage)).toBe(true);
  // Claude Code reports its cwd (recorded on the messages); Gemini CLI does not, the caller knows it.
  const options = source === 'gemini-cli' ? { cwd: GEMINI_CWD } : {};
  return { display: toDisplayMessages(stored, options), stored };
}

// Reasoning is shown too (the partial-messages run has some); the view is the rest.
const shape = (display: Awaited<ReturnType<typeof displayOf>>['display']) =>
  display
    .filter((m) => m.partType !== 'thinking')
    .map((m) => (m.partType === 'tool_execution' ? `tool: ${m.content}` : `${m.role}: ${m.content}`));

const CLAUDE_VIEW = [
  `user: ${PROMPT}`,
  "assistant: I'll create hello.txt with a greeting.",
  'tool: Created hello.txt',
  'assistant: Now I will edit the greeting.',
  'tool: Updated hello.txt',
  'tool: Ran `ls -la`',
  'assistant: Let me check whether a notes file exists.',
  'tool: Read does-not-exist.txt — failed: File does not exist.',
  'assistant: Done. I created hello.txt, changed its greeting to "Hello, acceptance tests!", listed the directory, and confirmed that does-not-exist.txt is missing.',
];

describe('the Claude Code transcript, end to end', () => {
  it.each([
    ['stream-json', FIXTURES.claudeStream],
    ['stream-json with partial messages', FIXTURES.claudePartial],
  ])('%s gives exactly the expected display view', async (_name, url) => {
    const { display } = await displayOf('claude-code', url);
    expect(shape(display)).toEqual(CLAUDE_VIEW);
    const executions = display.filter((m) => m.partType === 'tool_execution').map((m) => m.toolExecution);
    const [write, edit, bash, read] = executions;
    expect(write).toMatchObject({
      toolName: 'Write',
      isError: false,
      details: { type: 'diff', oldContent: '' },
    });
    expect(write?.details).toMatchObject({
      newContent: 'Hello, world!\nThis file was written by the mock model.\n',
    });
    expect(edit?.details).toMatchObject({
      type: 'diff',
      oldContent: expect.stringContaining('Hello, world!'),
      newContent: expect.stringContaining('Hello, acceptance tests!'),
      patch: expect.stringContaining('-Hello, world!\n+Hello, acceptance tests!'),
    });
    // The headers name the file as the summary does: relative to the session's cwd.
    for (const execution of [write, edit])
      expect(execution?.details?.type === 'diff' && execution.details.patch).toMatch(
        /^--- a\/hello\.txt\n\+\+\+ b\/hello\.txt\n/,
      );
    expect(bash?.details).toMatchObject({ type: 'commandOutput', stderr: '', exitCode: 0 });
    expect(bash?.details?.type === 'commandOutput' && bash.details.stdout).toContain('hello.txt');
    expect(read).toMatchObject({
      toolName: 'Read',
      isError: true,
      input: { file_path: expect.stringContaining('does-not-exist.txt') },
    });
  });

  it('shows the reasoning of the partial-messages run before the text it led to', async () => {
    const { display } = await displayOf('claude-code', FIXTURES.claudePartial);
    expect(display.slice(1, 3).map((m) => [m.partType, m.content])).toEqual([
      ['thinking', 'The user wants a file created first; I will use the Write tool.'],
      [undefined, "I'll create hello.txt with a greeting."],
    ]);
  });

  it('records the session so a later run can resume it', async () => {
    const { stored } = await displayOf('claude-code', FIXTURES.claudeStream);
    expect(stored.find((m) => m.role === 'assistant')?.providerMetadata).toEqual({
      'claude-code': {
        sessionId: 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490',
        cwd: '/home/dev/work-claude-stream',
      },
    });
  });
});

describe('times in the display view', () => {
  it.each([
    ['claude-code', FIXTURES.claudeStream],
    ['gemini-cli', FIXTURES.geminiStream],
  ] as const)(
    '%s: each execution has the time of its result, as the transcript recorded it',
    async (source, url) => {
      const { display, stored } = await displayOf(source, url);
      const executions = display.filter((m) => m.partType === 'tool_execution');
      expect(executions).toHaveLength(4);
      for (const execution of executions) {
        const result = stored.find((m) => m.tool_call_id === execution.toolExecution?.toolUseId);
        expect(execution.createdAt).toBe(result?.createdAt);
      }
      expect(new Set(executions.map((m) => m.createdAt)).size).toBe(4);
    },
  );
});

describe('the Gemini CLI transcript, end to end', () => {
  it('gives the same shape of display view', async () => {
    const { display } = await displayOf('gemini-cli', FIXTURES.geminiStream);
    expect(shape(display)).toEqual([
      ...CLAUDE_VIEW.slice(0, 7),
      expect.stringMatching(/^tool: Read does-not-exist\.txt — failed: File not found/),
      CLAUDE_VIEW[8],
    ]);
    const edit = display.find((m) => m.content === 'Updated hello.txt')?.toolExecution;
    expect(edit?.details).toMatchObject({
      type: 'diff',
      oldContent: 'Hello, world!',
      newContent: 'Hello, acceptance tests!',
    });
  });
});

describe('splitting the input', () => {
  const sources: Array<[FixtureSource, URL]> = [
    ['claude-code', FIXTURES.claudeStream],
    ['claude-code', FIXTURES.claudePartial],
    ['gemini-cli', FIXTURES.geminiStream],
  ];

  it.each(sources)('%s: any chunking and line ending gives the same messages', async (source, url) => {
    const text = readFixture(url);
    const expected = await processChunks(source, [text]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: text.length }), { maxLength: 40 }),
        fc.boolean(),
        async (cuts, crlf) => {
          const input = Buffer.from(crlf ? text.replaceAll('\n', '\r\n') : text);
          const points = [...new Set(cuts.map((cut) => Math.min(cut, input.length)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((start, index) =>
            input.subarray(start, points[index] ?? input.length),
          );
          expect(await processChunks(source, chunks)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
