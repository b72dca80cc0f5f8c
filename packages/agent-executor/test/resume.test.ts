import { existsSync } from 'node:fs';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { type AgentCliName, createAgentExecutor } from '../src/index.js';
import {
  CLAUDE_CODE_FIXTURE,
  CLAUDE_CODE_SESSION_ID,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  fixtureRecordedIn,
  GEMINI_CLI_FIXTURE,
  GEMINI_CLI_SESSION_ID,
  readArgvs,
  tempDir,
} from './support.js';

// An executor in a fresh directory whose fake agent replays `fixture` as if recorded there.
async function setup(agent: AgentCliName, fixture: string) {
  const store = createMemoryConversationStore();
  const argvFile = `${await tempDir()}/argv.jsonl`;
  const cwd = await tempDir();
  const executor = createAgentExecutor({
    store,
    agent,
    cwd,
    ...fakeAgentCommand({
      FAKE_AGENT_FIXTURE: await fixtureRecordedIn(fixture, cwd),
      FAKE_AGENT_ARGV_FILE: argvFile,
    }),
  });
  return { store, executor, cwd, argvFile, argvs: () => readArgvs(argvFile) };
}

describe('follow-up prompts resume the agent’s own session', () => {
  it('Claude Code: resume: true passes --resume=<the session id from the stored log>', async () => {
    const { store, executor, argvs } = await setup('claude-code', CLAUDE_CODE_FIXTURE);
    const first = await executor.run({ prompt: FIXTURE_PROMPT });
    const second = await executor.run({
      conversationId: first.conversationId,
      prompt: 'And now?',
      resume: true,
    });

    expect(second.success).toBe(true);
    const [firstArgs, secondArgs] = await argvs();
    expect(firstArgs?.some((arg) => arg.startsWith('--resume'))).toBe(false);
    expect(secondArgs).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      `--resume=${CLAUDE_CODE_SESSION_ID}`,
      '--',
      'And now?',
    ]);
    const log = await store.load(first.conversationId);
    expect(log.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      FIXTURE_PROMPT,
      'And now?',
    ]);
  });

  it('Gemini CLI: resume: true passes --resume=<session id>', async () => {
    const { executor, argvs } = await setup('gemini-cli', GEMINI_CLI_FIXTURE);
    const first = await executor.run({ prompt: FIXTURE_PROMPT });
    await executor.run({ conversationId: first.conversationId, prompt: 'Continue', resume: true });

    const [, secondArgs] = await argvs();
    expect(secondArgs).toEqual([
      '--prompt=Continue',
      '--output-format',
      'stream-json',
      `--resume=${GEMINI_CLI_SESSION_ID}`,
    ]);
  });

  it('a session id given as resume is passed joined to --resume', async () => {
    const { executor, argvs } = await setup('gemini-cli', GEMINI_CLI_FIXTURE);
    await executor.run({ prompt: 'Continue', resume: 'latest' });

    expect((await argvs())[0]).toContain('--resume=latest');
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
      cwd: claude.cwd,
      ...fakeAgentCommand(),
    });

    await expect(
      gemini.run({ conversationId: first.conversationId, prompt: 'Continue', resume: true }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('resume is checked before anything is written or run', () => {
  it.each([
    '--dangerously-skip-permissions',
    '-x',
    '',
    '.hidden',
    'a b',
    'id\n--yolo',
    '../session',
    'x'.repeat(129),
  ])('refuses the session id %j', async (resume) => {
    const { store, executor, argvFile } = await setup('claude-code', CLAUDE_CODE_FIXTURE);

    await expect(executor.run({ conversationId: 'c', prompt: 'Continue', resume })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await store.load('c')).toEqual([]);
    expect(existsSync(argvFile)).toBe(false);
  });

  it('refuses a session id of that shape found in the store (it is data, not trusted)', async () => {
    const { store, executor, argvFile } = await setup('claude-code', CLAUDE_CODE_FIXTURE);
    const planted = {
      id: 'planted',
      role: 'assistant' as const,
      createdAt: new Date().toISOString(),
      content: 'hi',
      providerMetadata: { 'claude-code': { sessionId: '--dangerously-skip-permissions' } },
    };
    await store.append('c', [planted]);

    await expect(executor.run({ conversationId: 'c', prompt: 'Continue', resume: true })).rejects.toThrow(
      /Invalid session id "--dangerously-skip-permissions" \(the Claude Code session recorded in conversation c\)/,
    );
    expect((await store.load('c')).map((message) => message.id)).toEqual(['planted']);
    expect(existsSync(argvFile)).toBe(false);
  });

  it('refuses to resume a session recorded in another working directory, naming it', async () => {
    const first = await setup('claude-code', CLAUDE_CODE_FIXTURE);
    const { conversationId } = await first.executor.run({ prompt: FIXTURE_PROMPT });
    const argvFile = `${await tempDir()}/argv.jsonl`;
    const elsewhere = createAgentExecutor({
      store: first.store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_ARGV_FILE: argvFile }),
    });

    const rejection = elsewhere.run({ conversationId, prompt: 'Continue', resume: true });
    await expect(rejection).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { sessionId: CLAUDE_CODE_SESSION_ID, sessionCwd: first.cwd },
    });
    await expect(rejection).rejects.toThrow(`was recorded in ${first.cwd}`);
    expect(
      (await first.store.load(conversationId)).filter((message) => message.role === 'user'),
    ).toHaveLength(1);
    expect(existsSync(argvFile)).toBe(false);
  });
});
