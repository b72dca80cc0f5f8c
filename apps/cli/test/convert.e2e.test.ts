import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@cairn/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ensureCliBuilt, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

// The real captured transcripts, kept beside their converters: the agent wrote hello.txt, edited
// it, listed the directory and failed to read does-not-exist.txt.
const fixture = (path: string) => fileURLToPath(new URL(`../../../packages/${path}`, import.meta.url));
const TRANSCRIPTS = {
  'claude-code': { file: fixture('agent-cli/src/claude-code/__fixtures__/stream.jsonl'), cwd: [] },
  // Gemini CLI does not record where it ran: --cwd says.
  'gemini-cli': {
    file: fixture('agent-cli/src/gemini-cli/__fixtures__/stream.jsonl'),
    cwd: ['--cwd', '/home/dev/work-gemini-stream'],
  },
} as const;

// The times the transcript records, on the lines that have one.
const recordedTimes = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .flatMap((line) => (JSON.parse(line) as { timestamp?: string }).timestamp ?? []);

describe.each(Object.entries(TRANSCRIPTS))('cairn convert --from %s on a real transcript', (from, input) => {
  const convert = async (...args: string[]) => {
    const run = await runCairn(['convert', '--from', from, input.file, ...input.cwd, ...args], {
      env: cliEnv(tempDir('convert')),
    });
    expect(run.code, run.stderr).toBe(0);
    return run.stdout;
  };

  it('keeps the times of the transcript, names files as the summaries do, and names the file a Read failed on', async () => {
    const display = (await convert('--view', 'display'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ConversationMessage);
    const executions = display.filter((message) => message.partType === 'tool_execution');

    // (a) Every message has a time the transcript recorded; each tool execution its own.
    const recorded = recordedTimes(input.file);
    for (const message of display) expect(recorded).toContain(message.createdAt);
    expect(new Set(executions.map((message) => message.createdAt)).size).toBe(executions.length);

    // (b) The diff headers name the file as the summary does.
    const [created, updated] = executions;
    expect(created?.content).toBe('Created hello.txt');
    expect(updated?.content).toBe('Updated hello.txt');
    for (const execution of [created, updated]) {
      const details = execution?.toolExecution?.details;
      expect(details?.type === 'diff' && details.patch).toMatch(
        /^--- a\/hello\.txt\n\+\+\+ b\/hello\.txt\n@@/,
      );
    }

    // (c) The failed Read names its file.
    expect(executions.at(-1)?.content).toMatch(
      /^Read does-not-exist\.txt — failed: File (does not exist|not found)/,
    );
  });

  it('shows the same in Markdown', async () => {
    const markdown = await convert('--format', 'md');
    expect(markdown).toContain('✓ Updated hello.txt\n\n```diff\n--- a/hello.txt\n+++ b/hello.txt\n@@ -1,');
    expect(markdown).toMatch(/\n✗ Read does-not-exist\.txt — failed: File (does not exist|not found)/);
    expect(markdown).not.toContain('/home/dev/');
  });
});
