import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isValidConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import { describeDisplay, fakeAgentCommand, readArgvs, tempDir } from './support.js';

// Real Qwen Code 0.15.10 runs (see the README beside them), replayed by the fake agent.
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../agent-cli/fixtures/real/qwen-code/${name}.jsonl`, import.meta.url));
const RECORDED_CWD = '/var/tmp/cairn-qwen-code-fixtures/w/main';
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';

/** A copy of a recorded run as if it had been recorded in `cwd` (Qwen Code reports its cwd). */
async function recordedIn(name: string, cwd: string): Promise<string> {
  const copy = join(await tempDir(), `${name}.jsonl`);
  await writeFile(copy, (await readFile(fixture(name), 'utf8')).replaceAll(RECORDED_CWD, cwd));
  return copy;
}

describe('a Qwen Code run, end to end into a store', () => {
  it('stores the session with its tools described and resumes it with --resume=<id>', async () => {
    const store = createMemoryConversationStore();
    const cwd = await tempDir();
    const argvFile = `${await tempDir()}/argv.jsonl`;
    const sessionId = JSON.parse((await readFile(fixture('main'), 'utf8')).split('\n')[0] ?? '').session_id;
    const run = async (
      name: string,
      options: { prompt: string; conversationId?: string; resume?: boolean },
    ) =>
      createAgentExecutor({
        store,
        agent: 'qwen-code',
        cwd,
        extraArgs: ['--yolo'],
        ...fakeAgentCommand({
          FAKE_AGENT_FIXTURE: await recordedIn(name, cwd),
          FAKE_AGENT_ARGV_FILE: argvFile,
        }),
      }).run(options);

    const first = await run('main', { prompt: PROMPT });
    expect(first).toMatchObject({ success: true, sessionId, result: 'Done: hello.txt says Hello, Cairn!' });
    await run('resume', { prompt: 'Still there?', conversationId: first.conversationId, resume: true });

    const log = await store.load(first.conversationId);
    expect(log.every(isValidConversationMessage)).toBe(true);
    expect(describeDisplay(toDisplayMessages(log)).slice(0, 9)).toEqual([
      `user: ${PROMPT}`,
      'assistant: Creating hello.txt.',
      'tool: Created hello.txt',
      'assistant: Editing it.',
      'tool: Updated hello.txt',
      'tool: Ran `ls -la`',
      'assistant: Reading a missing file.',
      'tool (error): Read does-not-exist.txt — failed: File not found',
      'assistant: Done: hello.txt says Hello, Cairn!',
    ]);
    expect(await readArgvs(argvFile)).toEqual([
      [`--prompt=${PROMPT}`, '--output-format', 'stream-json', '--yolo'],
      ['--prompt=Still there?', '--output-format', 'stream-json', `--resume=${sessionId}`, '--yolo'],
    ]);
  });

  it('fails a run whose model call failed, though Qwen Code reports success', async () => {
    const store = createMemoryConversationStore();
    const result = await createAgentExecutor({
      store,
      agent: 'qwen-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: fixture('err400') }),
    }).run({ prompt: 'Say hi.' });
    expect(result.success).toBe(false);
    expect(result.error).toMatchObject({ code: 'LLM_BAD_REQUEST', message: 'mock: this request is invalid' });
    // Stored once, as the run's error part, never as if the model had said it.
    const stored = await store.load(result.conversationId);
    expect(stored.filter((message) => message.role === 'assistant')).toEqual([
      expect.objectContaining({ partType: 'error', content: 'mock: this request is invalid' }),
    ]);
  });
});
