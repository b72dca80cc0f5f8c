import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFsConversationStore } from '@cairn/store-fs';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_API_ERROR,
  CLAUDE_SESSION,
  capturedIO,
  GEMINI_SESSION,
  installFakeAgent,
  readArgvs,
  tempDir,
} from '../../test/fixtures/agent/agent-test-support.js';
import { createColors } from '../render/colors.js';
import { type AgentCommandOptions, runAgentCommand } from './agent-command.js';

const colors = createColors(false);
const PROMPT = 'Fix the typo in notes.txt';

/** A project directory, a file store, and the fake `claude` and `gemini` replaying `transcript`. */
async function setUp(transcript = CLAUDE_SESSION, env: NodeJS.ProcessEnv = {}) {
  const bin = await tempDir();
  const project = await tempDir();
  const argvFile = join(bin, 'argv.jsonl');
  const store = createFsConversationStore({ rootDir: await tempDir() });
  const claude = await installFakeAgent(bin, 'claude');
  const gemini = await installFakeAgent(bin, 'gemini');
  const run = async (options: Partial<AgentCommandOptions> = {}, runEnv: NodeJS.ProcessEnv = {}) => {
    const io = capturedIO({
      cwd: project,
      env: { FAKE_AGENT_TRANSCRIPT: transcript, FAKE_AGENT_ARGV_FILE: argvFile, ...env, ...runEnv },
    });
    const agent = options.agent ?? 'claude';
    const code = await runAgentCommand(
      { agent, prompt: PROMPT, cwd: '.', command: agent === 'claude' ? claude : gemini, ...options },
      { io, store, colors },
    );
    return { code, stdout: io.stdout.text, stderr: io.stderr.text };
  };
  return { project, store, argvFile, claude, run };
}

describe('cairn agent claude', () => {
  it('shows the merged tool lines and the diff live, and stores the run', async () => {
    const { store, run, argvFile } = await setUp();

    const { code, stdout, stderr } = await run();

    expect(code).toBe(0);
    expect(stdout).not.toContain(PROMPT);
    expect(stdout).toContain("I'll fix the greeting in notes.txt.");
    expect(stdout).toMatch(/Updated notes\.txt/);
    expect(stdout).toMatch(/-Hello, wrld!\n\s*\+Hello, world!/);
    expect(stdout).toMatch(/Ran `cat notes\.txt`/);
    expect(stdout).toContain('Fixed: the greeting now reads "Hello, world!".');

    const [conversation] = (await store.listConversations()).conversations;
    const id = conversation?.id ?? '';
    expect(id).toMatch(/^agent-/);
    expect(stderr).toContain(`conversation ${id}\n`);
    expect(stderr).toContain(`continue with: cairn agent claude --resume --conversation ${id} "…"`);
    expect(stderr).toContain('3 turns · 2,250 input (900 cached) / 85 output tokens · $0.0123 · 4.2s');

    const log = await store.load(id);
    expect(log[0]).toMatchObject({ role: 'user', content: PROMPT, mode: 'agent' });
    expect(log.filter((message) => message.role === 'tool').map((message) => message.toolName)).toEqual([
      'Edit',
      'Bash',
    ]);
    // Read-only by default: edits and commands need --permissions or --allow.
    expect(await readArgvs(argvFile)).toEqual([
      ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode=default', '--', PROMPT],
    ]);
  });

  it('prints every event as a JSON line with --json', async () => {
    const { run } = await setUp();

    const { code, stdout } = await run({ json: true });

    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]).toMatchObject({ type: 'session_start', sessionId: 'claude-session-1' });
    expect(events.map((event) => event.type)).toContain('tool_use');
    expect(events.at(-1)).toMatchObject({ type: 'session_result', isError: false });
  });

  it('resumes the latest Claude Code conversation of the directory with --resume', async () => {
    const { store, run, argvFile } = await setUp();
    await run();
    const [first] = (await store.listConversations()).conversations;
    // A newer Gemini CLI conversation is not the one to resume.
    await run({ agent: 'gemini' }, { FAKE_AGENT_TRANSCRIPT: GEMINI_SESSION });

    const { code } = await run({ prompt: 'And the second line?', resume: true });

    expect(code).toBe(0);
    expect((await readArgvs(argvFile))[2]).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--resume=claude-session-1',
      '--permission-mode=default',
      '--',
      'And the second line?',
    ]);
    const log = await store.load(first?.id ?? '');
    expect(log.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      PROMPT,
      'And the second line?',
    ]);
  });

  it('resumes the conversation given with --conversation', async () => {
    const { store, run, argvFile } = await setUp();
    await run();
    await run();
    const [, older] = (await store.listConversations()).conversations;

    const { code } = await run({ resume: true, conversationId: older?.id ?? '' });

    expect(code).toBe(0);
    expect((await readArgvs(argvFile))[2]).toContain('--resume=claude-session-1');
    expect(await store.load(older?.id ?? '')).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 'user', content: PROMPT })]),
    );
    expect((await store.load(older?.id ?? '')).filter((message) => message.role === 'user')).toHaveLength(2);
  });

  it('fails clearly when there is nothing to resume, without running the agent', async () => {
    const { run, argvFile } = await setUp();

    const { code, stderr } = await run({ resume: true });

    expect(code).toBe(2);
    expect(stderr).toBe(
      'cairn: there is no Claude Code conversation to resume [INVALID_ARGUMENT] — start one with `cairn agent claude "<prompt>"`\n',
    );
    await expect(readArgvs(argvFile)).rejects.toThrow(/ENOENT/);
  });

  it('names the directory of a conversation recorded elsewhere', async () => {
    const { run } = await setUp();
    await run();
    const elsewhere = await tempDir();

    const { code, stderr } = await run({ resume: true, cwd: elsewhere });

    expect(code).toBe(2);
    expect(stderr).toMatch(/no Claude Code conversation to resume in .* ran in .*: add `--cwd /);
  });

  it('says in one line how to install Claude Code when the executable is missing', async () => {
    const { run } = await setUp();

    const { code, stdout, stderr } = await run({ command: 'cairn-test-no-such-claude' });

    expect(code).toBe(6);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'cairn: cairn-test-no-such-claude was not found on PATH [AGENT_FAILED] — install Claude Code (npm i -g @anthropic-ai/claude-code) or set CAIRN_CLAUDE_COMMAND\n',
    );
  });

  it('runs the executable named by CAIRN_CLAUDE_COMMAND', async () => {
    const { run, claude, argvFile } = await setUp();

    const { code } = await run({ command: undefined }, { CAIRN_CLAUDE_COMMAND: claude });

    expect(code).toBe(0);
    expect(await readArgvs(argvFile)).toHaveLength(1);
  });

  it('fails with the agent exit code and its stderr when the agent exits with 1', async () => {
    const { run } = await setUp(CLAUDE_SESSION, { FAKE_AGENT_EXIT_CODE: '1', FAKE_AGENT_STDERR: 'boom\n' });

    const { code, stderr } = await run();

    expect(code).toBe(6);
    expect(stderr).toContain('cairn: Claude Code exited with code 1:\nboom [AGENT_FAILED]');
  });

  it('fails when Claude Code reports an error result', async () => {
    const { run } = await setUp(CLAUDE_API_ERROR, { FAKE_AGENT_EXIT_CODE: '1' });

    const { code, stdout, stderr } = await run();

    expect(code).toBe(6);
    // The failure is reported once, on stderr.
    expect(stdout).toBe('');
    expect(stderr).toContain('cairn: API Error: 529 Overloaded [AGENT_FAILED]');
    expect(stderr).toContain('--resume --conversation agent-');
  });

  it('ends with exit code 130 when aborted', async () => {
    const { project, store, claude } = await setUp();
    const io = capturedIO({ cwd: project });

    const code = await runAgentCommand(
      { agent: 'claude', prompt: PROMPT, cwd: '.', command: claude },
      { io, store, colors, signal: AbortSignal.abort() },
    );

    expect(code).toBe(130);
    expect(io.stderr.text).toContain('[LLM_ABORTED]');
  });

  it('names the directory in the resume command when the agent ran elsewhere', async () => {
    const { project, run } = await setUp();
    await mkdir(join(project, 'my app'));

    const { code, stderr } = await run({ cwd: 'my app' });

    expect(code).toBe(0);
    expect(stderr).toContain(`--cwd '${join(project, 'my app')}' "…"`);
  });

  it('refuses a --cwd that is not a directory, storing nothing', async () => {
    const { run, store } = await setUp();

    const { code, stderr } = await run({ cwd: 'no-such-dir' });

    expect(code).toBe(2);
    expect(stderr).toBe('cairn: --cwd no-such-dir is not a directory [INVALID_ARGUMENT]\n');
    expect((await store.listConversations()).conversations).toEqual([]);
  });
});

describe('cairn agent gemini', () => {
  it('shows the merged tool lines and stores the prompt once', async () => {
    const { store, run, argvFile } = await setUp(GEMINI_SESSION);

    const { code, stdout, stderr } = await run({ agent: 'gemini' });

    expect(code).toBe(0);
    expect(stdout).not.toContain(PROMPT);
    expect(stdout).toMatch(/Updated notes\.txt/);
    expect(stdout).toMatch(/Ran `cat notes\.txt`/);
    expect(stdout).toContain('Done: the greeting is fixed.');
    expect(stderr).toMatch(/continue with: cairn agent gemini --resume --conversation agent-/);
    expect(await readArgvs(argvFile)).toEqual([
      [`--prompt=${PROMPT}`, '--output-format', 'stream-json', '--approval-mode=default'],
    ]);
    const [conversation] = (await store.listConversations()).conversations;
    const log = await store.load(conversation?.id ?? '');
    expect(log.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it("passes the permissions as the CLI's own flags", async () => {
    const { run, argvFile } = await setUp(GEMINI_SESSION);

    await run({ agent: 'gemini', permissions: { mode: 'full', allowedTools: ['run_shell_command(git)'] } });
    await run({ agent: 'claude', permissions: { mode: 'edit', allowedTools: ['Bash(npm test)'] } });

    const [gemini, claude] = await readArgvs(argvFile);
    expect(gemini).toEqual([
      `--prompt=${PROMPT}`,
      '--output-format',
      'stream-json',
      '--approval-mode=yolo',
      '--allowed-tools=run_shell_command(git)',
    ]);
    expect(claude).toContain('--permission-mode=acceptEdits');
    expect(claude).toContain('--allowedTools=Bash(npm test)');
  });

  it('says how to install Gemini CLI when the executable is missing', async () => {
    const { run } = await setUp(GEMINI_SESSION);

    const { code, stderr } = await run({ agent: 'gemini', command: '/nonexistent/gemini' });

    expect(code).toBe(6);
    expect(stderr).toBe(
      'cairn: /nonexistent/gemini was not found [AGENT_FAILED] — install Gemini CLI (npm i -g @google/gemini-cli) or set CAIRN_GEMINI_COMMAND\n',
    );
  });
});
