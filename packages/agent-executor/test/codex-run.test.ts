import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isValidConversationMessage } from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import { describeDisplay, fakeAgentCommand, readArgvs, tempDir } from './support.js';

// Real Codex CLI 0.171.0 runs (see the README beside them), replayed by the fake agent.
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../agent-cli/fixtures/real/codex/${name}.jsonl`, import.meta.url));
const RECORDED_CWD = '/var/tmp/cairn-codex-fixtures/w/main';
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';

/** A copy of a recorded run as if it had been recorded in `cwd`. */
async function recordedIn(name: string, cwd: string): Promise<string> {
  const copy = join(await tempDir(), `${name}.jsonl`);
  await writeFile(copy, (await readFile(fixture(name), 'utf8')).replaceAll(RECORDED_CWD, cwd));
  return copy;
}

describe('a Codex CLI run, end to end into a store', () => {
  it('stores the session, describes its tools, and resumes the thread with exec resume', async () => {
    const store = createMemoryConversationStore();
    const cwd = await tempDir();
    const argvFile = `${await tempDir()}/argv.jsonl`;
    const threadId = JSON.parse((await readFile(fixture('main'), 'utf8')).split('\n')[0] ?? '').thread_id;
    const run = async (
      name: string,
      options: { prompt: string; conversationId?: string; resume?: boolean },
    ) => {
      const executor = createAgentExecutor({
        store,
        agent: 'codex',
        cwd,
        model: 'gpt-5.5',
        ...fakeAgentCommand({
          FAKE_AGENT_FIXTURE: await recordedIn(name, cwd),
          FAKE_AGENT_ARGV_FILE: argvFile,
        }),
      });
      return executor.run(options);
    };

    const first = await run('main', { prompt: PROMPT });
    expect(first).toMatchObject({ success: true, exitCode: 0, sessionId: threadId });
    expect(first.result).toBe('Done: hello.txt says Hello, Cairn!');
    const second = await run('resume', {
      prompt: 'Is hello.txt still there?',
      conversationId: first.conversationId,
      resume: true,
    });
    expect(second).toMatchObject({
      success: true,
      sessionId: threadId,
      result: 'It still says Hello, Cairn!',
    });

    const log = await store.load(first.conversationId);
    expect(log.every(isValidConversationMessage)).toBe(true);
    // Both runs number their items from item_0: each run's tool calls still pair with their own results.
    expect(describeDisplay(toDisplayMessages(log))).toEqual([
      `user: ${PROMPT}`,
      'assistant: Create the file first.',
      'assistant: Creating hello.txt.',
      'tool: Created hello.txt',
      'assistant: Editing it.',
      'tool: Updated hello.txt',
      'tool: Ran `ls -la`',
      'assistant: Reading a missing file.',
      'tool (error): Read does-not-exist.txt — failed: cat: does-not-exist.txt: No such file or directory',
      'assistant: Done: hello.txt says Hello, Cairn!',
      'user: Is hello.txt still there?',
      'assistant: I see 18 input items.',
      'tool: Read hello.txt',
      'assistant: It still says Hello, Cairn!',
    ]);
    expect(await readArgvs(argvFile)).toEqual([
      ['exec', '--json', '--model', 'gpt-5.5', '--', PROMPT],
      ['exec', 'resume', threadId, '--json', '--model', 'gpt-5.5', '--', 'Is hello.txt still there?'],
    ]);
  });

  it('reports a failed turn as a failed run with its classified error', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'codex',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: fixture('err400'), FAKE_AGENT_EXIT_CODE: '1' }),
    });
    const result = await executor.run({ prompt: 'Say hi.' });
    expect(result.success).toBe(false);
    const log = await store.load(result.conversationId);
    expect(
      log.some((message) => message.partType === 'error' && message.errorCode === 'LLM_BAD_REQUEST'),
    ).toBe(true);
  });
});
