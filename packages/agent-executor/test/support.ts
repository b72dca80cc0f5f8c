// The executor's test support, in one place: the fake agent, the recorded transcripts it replays,
// temporary directories, and readers of what the fake agent wrote down.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { recordedFixtureCwd } from '@cairn/testing/agent-clis';
import { scaledTimeout } from '@cairn/vitest-config';
import { afterEach, expect, vi } from 'vitest';
import { type AgentExecutorOptions, type AgentRunOptions, createAgentExecutor } from '../src/index.js';

/** The fake agent script (see its header for the variables it obeys). */
export const FAKE_AGENT = fileURLToPath(new URL('./fake-agent.mjs', import.meta.url));
// The captured transcripts live beside the converters that own them.
export const CLAUDE_CODE_FIXTURE = fileURLToPath(
  new URL('../../agent-cli/src/claude-code/__fixtures__/stream.jsonl', import.meta.url),
);
export const GEMINI_CLI_FIXTURE = fileURLToPath(
  new URL('../../agent-cli/src/gemini-cli/__fixtures__/stream.jsonl', import.meta.url),
);
/** The prompt both recorded transcripts answer. */
export const FIXTURE_PROMPT =
  'Create hello.txt containing a greeting, change the greeting, list the directory, then check whether does-not-exist.txt exists.';
export const CLAUDE_CODE_SESSION_ID = 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490';
export const GEMINI_CLI_SESSION_ID = '36d01c64-f5ba-4a5c-86ac-75956eb73cfb';

// Where each transcript was recorded (Claude Code reports it in its `init` line; Gemini CLI's paths
// name it).
const RECORDED_CWD = new Map([
  [CLAUDE_CODE_FIXTURE, '/home/dev/work-claude-stream'],
  [GEMINI_CLI_FIXTURE, '/home/dev/work-gemini-stream'],
]);

/** Executor options that run the fake agent with `node` (no executable bit needed). */
export function fakeAgentCommand(env: Record<string, string> = {}) {
  return { command: process.execPath, commandArgs: [FAKE_AGENT], env };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-agent-executor-'));
  dirs.push(dir);
  return dir;
}

/**
 * A copy of a recorded transcript as if it had been recorded in `cwd` (its recorded working
 * directory replaced), so the sessions it reports can be resumed from an executor running there.
 */
export async function fixtureRecordedIn(fixture: string, cwd: string): Promise<string> {
  const recorded = RECORDED_CWD.get(fixture);
  if (recorded === undefined) throw new Error(`no recorded cwd known for ${fixture}`);
  const copy = join(await tempDir(), 'stream.jsonl');
  await writeFile(copy, (await readFile(fixture, 'utf8')).replaceAll(recorded, cwd));
  return copy;
}

// The real CLIs' recordings (@cairn/agent-cli's fixtures/real).
const REAL_FIXTURES = new URL('../../agent-cli/fixtures/real/', import.meta.url);
const REAL_FIXTURE_CWD = recordedFixtureCwd(REAL_FIXTURES);

/** A real CLI's recorded stdout, `fixtures/real/<cli>/<name>.jsonl`. */
export function realFixture(cli: string, name: string): string {
  return fileURLToPath(new URL(`${cli}/${name}.jsonl`, REAL_FIXTURES));
}

/** A copy of a real recording as if it had been recorded in `cwd` (the CLIs report their cwd). */
export async function realFixtureRecordedIn(cli: string, name: string, cwd: string): Promise<string> {
  const copy = join(await tempDir(), `${name}.jsonl`);
  await writeFile(copy, (await readFile(realFixture(cli, name), 'utf8')).replaceAll(REAL_FIXTURE_CWD, cwd));
  return copy;
}

/**
 * Replays a real CLI's recordings in one cwd and store: each `run(name, …)` is an executor of
 * `agent` whose fake agent prints `fixtures/real/<agent>/<name>.jsonl` (as if recorded in that cwd),
 * appends its arguments to `argvFile` and obeys `fakeAgentEnv` (`FAKE_AGENT_EXIT_CODE`, …).
 */
export async function replayRealRuns(
  agent: 'codex' | 'qwen-code',
  options: Partial<AgentExecutorOptions> = {},
) {
  const store = createMemoryConversationStore();
  const cwd = await tempDir();
  const argvFile = join(await tempDir(), 'argv.jsonl');
  const firstLine = (await readFile(realFixture(agent, 'main'), 'utf8')).split('\n')[0] ?? '{}';
  const run = async (name: string, runOptions: AgentRunOptions, fakeAgentEnv: Record<string, string> = {}) =>
    createAgentExecutor({
      store,
      agent,
      cwd,
      ...options,
      ...fakeAgentCommand({
        FAKE_AGENT_FIXTURE: await realFixtureRecordedIn(agent, name, cwd),
        FAKE_AGENT_ARGV_FILE: argvFile,
        ...fakeAgentEnv,
      }),
    }).run(runOptions);
  return { store, argvFile, firstLine: JSON.parse(firstLine) as Record<string, unknown>, run };
}

/** The arguments of each run of the fake agent, from its `FAKE_AGENT_ARGV_FILE`. */
export async function readArgvs(argvFile: string): Promise<string[][]> {
  return (await readFile(argvFile, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A display view in one line per message: who, and the text or tool summary. */
export function describeDisplay(messages: readonly ConversationMessage[]): string[] {
  return messages.map((message) => {
    if (message.partType === 'tool_execution') {
      const execution = message.toolExecution;
      return `tool${execution?.isError ? ' (error)' : ''}: ${message.content}`;
    }
    if (message.partType === 'error') return `error ${message.errorCode}: ${message.content}`;
    return `${message.role}: ${message.content}`;
  });
}

/**
 * The display view of either recorded transcript, through `describeDisplay`; the CLIs word the
 * failed read differently, so its summary is matched by `readFailure`.
 */
export function fixtureDisplayView(readFailure: RegExp): unknown[] {
  return [
    `user: ${FIXTURE_PROMPT}`,
    "assistant: I'll create hello.txt with a greeting.",
    'tool: Created hello.txt',
    'assistant: Now I will edit the greeting.',
    'tool: Updated hello.txt',
    'tool: Ran `ls -la`',
    'assistant: Let me check whether a notes file exists.',
    expect.stringMatching(readFailure),
    expect.stringMatching(/^assistant: Done\. I created hello\.txt/),
  ];
}

/**
 * The display view of a replayed `main-short` recording (Codex CLI, Qwen Code: write, edit, list,
 * a failed read), through `describeDisplay`. Codex reasons first; each CLI words the failed read.
 */
export function mainShortDisplayView(prompt: string, cli: { reasoning?: string; readFailure: string }) {
  return [
    `user: ${prompt}`,
    ...(cli.reasoning === undefined ? [] : [`assistant: ${cli.reasoning}`]),
    'assistant: Creating hello.txt.',
    'tool: Created hello.txt',
    'assistant: Editing it.',
    'tool: Updated hello.txt',
    'tool: Ran `ls -la`',
    'assistant: Reading a missing file.',
    `tool (error): Read does-not-exist.txt — failed: ${cli.readFailure}`,
    'assistant: Done: hello.txt says Hello, Cairn!',
  ];
}

/** Kills the process whose pid the fake agent wrote to `pidFile`, if it wrote one and it still runs. */
export async function killPidFrom(pidFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).trim());
  } catch {
    return;
  }
  killPid(pid);
}

/** Kills `pid` if it still runs. */
export function killPid(pid: number): void {
  // Never 0 or negative: those would signal a whole process group.
  if (!(Number.isInteger(pid) && pid > 0)) throw new Error(`not a pid: ${pid}`);
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

// `/proc/<pid>/stat`: `pid (comm) state ppid pgrp …`, read after comm's last `)`.
function statOf(pid: string): { state: string; pgid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** The process group `pid` belongs to; `undefined` once it is gone. */
export function processGroupOf(pid: number): number | undefined {
  return statOf(String(pid))?.pgid;
}

/** Whether `pid` runs (a zombie, dead and not yet reaped, does not). */
export function isRunning(pid: number): boolean {
  const stat = statOf(String(pid));
  return stat !== undefined && stat.state !== 'Z';
}

/** The running processes of process group `pgid` (as `ps -o pid= -g <pgid>` lists them, zombies left out). */
export function processGroupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      const stat = statOf(name);
      return stat !== undefined && stat.pgid === pgid && stat.state !== 'Z';
    })
    .map(Number);
}

/** Polls `check` until it holds or `timeoutMs` (scaled) passed; then returns its last value. */
export async function eventually<T>(
  check: () => T,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  let value = check();
  await vi
    .waitFor(
      () => {
        value = check();
        if (!done(value)) throw new Error('not yet');
      },
      { timeout: scaledTimeout(timeoutMs), interval: 50 },
    )
    .catch(() => undefined);
  return value;
}

/** The pids the fake agent wrote to `pidFile`, one a line (none when it wrote none). */
export async function readPids(pidFile: string): Promise<number[]> {
  try {
    return (await readFile(pidFile, 'utf8')).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
