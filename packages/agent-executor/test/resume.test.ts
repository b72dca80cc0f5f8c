import { readFile } from 'node:fs/promises';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { type AgentCliName, createAgentExecutor } from '../src/index.js';
import {
  CLAUDE_CODE_FIXTURE,
  CLAUDE_CODE_SESSION_ID,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  GEMINI_CLI_FIXTURE,
  GEMINI_CLI_SESSION_ID,
  tempDir,
} from './fake-agent.js';

async function setup(agent: AgentCliName, fixture: string) {
  const store = createMemoryConversationStore();
  const argvFile = `${await tempDir()}/argv.jsonl`;
  const executor = createAgentExecutor({
    store,
    agent,
    cwd: await tempDir(),
    ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: fixture, FAKE_AGENT_ARGV_FILE: argvFile }),
  });
  const argvs = async (): Promise<string[][]> =>
    (await readFile(argvFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  return { store, executor, argvs };
}

describe('follow-up prompts resume the agent’s own session', () => {
  it('Claude Code: resume: true passes --resume with the session id from the stored log', async () => {
    const { store, executor, argvs } = await setup('claude-code', CLAUDE_CODE_FIXTURE);
    const first = await executor.run({ prompt: FIXTURE_PROMPT });
    const second = await executor.run({
      conversationId: first.conversationId,
      prompt: 'And now?',
      resume: true,
    });

    expect(second.success).toBe(true);
    const [firstArgs, secondArgs] = await argvs();
    expect(firstArgs).not.toContain('--resume');
    expect(secondArgs).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--resume',
      CLAUDE_CODE_SESSION_ID,
      '--',
      'And now?',
    ]);
    const log = await store.load(first.conversationId);
    expect(log.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      FIXTURE_PROMPT,
      'And now?',
    ]);
  });

  it('Gemini CLI: resume: true passes --resume <session id>', async () => {
    const { executor, argvs } = await setup('gemini-cli', GEMINI_CLI_FIXTURE);
    const first = await executor.run({ prompt: FIXTURE_PROMPT });
    await executor.run({ conversationId: first.conversationId, prompt: 'Continue', resume: true });

    const [, secondArgs] = await argvs();
    expect(secondArgs).toEqual([
      '--prompt=Continue',
      '--output-format',
      'stream-json',
      '--resume',
      GEMINI_CLI_SESSION_ID,
    ]);
  });

  it('a session id given as resume is passed as is', async () => {
    const { executor, argvs } = await setup('gemini-cli', GEMINI_CLI_FIXTURE);
    await executor.run({ prompt: 'Continue', resume: 'latest' });

    expect((await argvs())[0]).toContain('latest');
  });

  it('resume: true without a stored session rejects with INVALID_ARGUMENT and writes nothing', async () => {
    const { store, executor } = await setup('claude-code', CLAUDE_CODE_FIXTURE);
    await expect(
      executor.run({ conversationId: 'empty', prompt: 'Continue', resume: true }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await store.load('empty')).toEqual([]);
  });

  it('only sessions of the same CLI are resumed', async () => {
    const claude = await setup('claude-code', CLAUDE_CODE_FIXTURE);
    const first = await claude.executor.run({ prompt: FIXTURE_PROMPT });
    const gemini = createAgentExecutor({
      store: claude.store,
      agent: 'gemini-cli',
      cwd: await tempDir(),
      ...fakeAgentCommand(),
    });

    await expect(
      gemini.run({ conversationId: first.conversationId, prompt: 'Continue', resume: true }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
