import { readFile } from 'node:fs/promises';
import {
  type ConversationMessage,
  INTERRUPTED_TOOL_RESULT_TEXT,
  isValidConversationMessage,
} from '@cairn/core';
import { toDisplayMessages } from '@cairn/message-processor';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createAgentExecutor } from '../src/index.js';
import {
  CLAUDE_CODE_FIXTURE,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  GEMINI_CLI_FIXTURE,
  killPidFrom,
  tempDir,
} from './support.js';

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function runClaude(env: Record<string, string>, command?: string) {
  const store = createMemoryConversationStore();
  const executor = createAgentExecutor({
    store,
    agent: 'claude-code',
    cwd: await tempDir(),
    ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE, ...env }),
    ...(command === undefined ? {} : { command, commandArgs: [] }),
  });
  const display: ConversationMessage[] = [];
  const result = await executor.run({
    prompt: FIXTURE_PROMPT,
    onDisplayMessage: (message) => display.push(message),
  });
  const log = await store.load(result.conversationId);
  expect(log.every(isValidConversationMessage)).toBe(true);
  expect(display).toEqual(toDisplayMessages(log));
  return { result, log, display, store };
}

const errorsOf = (log: ConversationMessage[]) => log.filter((message) => message.partType === 'error');
const CLI_ERROR_RESULT =
  '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"API Error: 529 Overloaded","session_id":"s-1"}\n';

describe('agent failures become stored error messages and an unsuccessful result', () => {
  it('a non-zero exit: the exit code and the end of stderr, after interrupted tool results', async () => {
    const { result, log, display } = await runClaude({
      FAKE_AGENT_LINES: '3',
      FAKE_AGENT_STDERR: 'warming up\nError: connection reset\n    at fetch (cli.js:1:1)\n',
      FAKE_AGENT_EXIT_CODE: '2',
    });

    expect(result).toMatchObject({ success: false, exitCode: 2, signal: null });
    expect(result.stderr).toBe('warming up\nError: connection reset\n    at fetch (cli.js:1:1)\n');
    const message =
      'Claude Code exited with code 2:\nwarming up\nError: connection reset\n    at fetch (cli.js:1:1)';
    expect(result.error).toEqual({ code: 'AGENT_FAILED', message });
    expect(log.map((entry) => entry.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log[2]).toMatchObject({ role: 'tool', interrupted: true, toolName: 'Write', runId: result.runId });
    expect(log[3]).toMatchObject({
      partType: 'error',
      errorCode: 'AGENT_FAILED',
      content: message,
      mode: 'agent',
    });
    expect(display.find((entry) => entry.partType === 'tool_execution')?.toolExecution?.status).toBe(
      'unfinished',
    );
  });

  it('a clean exit without the result line is a failed run; a pending tool call gets an interrupted result', async () => {
    const { result, log } = await runClaude({ FAKE_AGENT_LINES: '3' });

    expect(result).toMatchObject({ success: false, exitCode: 0 });
    expect(result.error).toEqual({
      code: 'AGENT_FAILED',
      message:
        'Claude Code ended without a result: the agent CLI exited before writing its final result line, so the run did not finish',
    });
    const call = log[1]?.tool_calls?.[0];
    expect(call?.function.name).toBe('Write');
    expect(log[2]).toMatchObject({ role: 'tool', tool_call_id: call?.id, interrupted: true, isError: true });
    expect(log[2]?.content).toContain(INTERRUPTED_TOOL_RESULT_TEXT);
    expect(errorsOf(log).map((message) => message.errorCode)).toEqual(['AGENT_FAILED']);
  });

  it('Gemini CLI exiting 0 without its result line (as on SIGINT) is a failed run', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'gemini-cli',
      cwd: await tempDir(),
      // Everything but the final `result` line.
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: GEMINI_CLI_FIXTURE, FAKE_AGENT_LINES: '20' }),
    });

    const result = await executor.run({ prompt: FIXTURE_PROMPT });

    expect(result).toMatchObject({ success: false, exitCode: 0, error: { code: 'AGENT_FAILED' } });
    expect(result.error?.message).toMatch(/^Gemini CLI ended without a result/);
    const log = await store.load(result.conversationId);
    expect(log.at(-1)).toMatchObject({ partType: 'error', errorCode: 'AGENT_FAILED' });
  });

  it('a crash in the middle of a line: the cut line and the signal are both reported', async () => {
    const { result, log, store } = await runClaude({
      FAKE_AGENT_LINES: '4',
      FAKE_AGENT_CUT: '1',
      FAKE_AGENT_KILL_SELF: 'SIGKILL',
    });

    expect(result).toMatchObject({ success: false, exitCode: null, signal: 'SIGKILL' });
    expect(result.error).toEqual({ code: 'AGENT_FAILED', message: 'Claude Code was killed by SIGKILL' });
    expect(errorsOf(log).map((message) => message.errorCode)).toEqual(['LLM_BAD_RESPONSE', 'AGENT_FAILED']);
    // The cut-off line is kept in the raw transcript.
    const transcript = Buffer.from(await store.getBlob(result.transcriptRef as string)).toString('utf8');
    expect(transcript.endsWith('\n')).toBe(false);
    expect(transcript.split('\n')).toHaveLength(5);
  });

  it('output cut mid-line with exit code 0 still fails the run, with one error message', async () => {
    const { result, log } = await runClaude({ FAKE_AGENT_LINES: '2', FAKE_AGENT_CUT: '1' });

    expect(result.success).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.error?.code).toBe('LLM_BAD_RESPONSE');
    expect(errorsOf(log)).toHaveLength(1);
  });

  it('an error result of the CLI explains its non-zero exit: one error message, the CLI’s', async () => {
    const { result, log } = await runClaude({
      FAKE_AGENT_LINES: '0',
      FAKE_AGENT_PRINT: CLI_ERROR_RESULT,
      FAKE_AGENT_EXIT_CODE: '1',
    });

    expect(result).toMatchObject({ success: false, exitCode: 1, sessionId: 's-1' });
    expect(result.error).toEqual({ code: 'AGENT_FAILED', message: 'API Error: 529 Overloaded' });
    expect(errorsOf(log).map((message) => message.content)).toEqual(['API Error: 529 Overloaded']);
  });

  it('an error result with stderr output adds the exit message, which carries the stderr', async () => {
    const { result, log } = await runClaude({
      FAKE_AGENT_LINES: '0',
      FAKE_AGENT_PRINT: CLI_ERROR_RESULT,
      FAKE_AGENT_STDERR: 'retry budget exhausted\n',
      FAKE_AGENT_EXIT_CODE: '1',
    });

    expect(result.error).toEqual({
      code: 'AGENT_FAILED',
      message: 'Claude Code exited with code 1:\nretry budget exhausted',
    });
    expect(errorsOf(log).map((message) => message.content)).toEqual([
      'API Error: 529 Overloaded',
      'Claude Code exited with code 1:\nretry budget exhausted',
    ]);
  });

  it('an error result with exit code 0 fails the run without a second message', async () => {
    const { result, log } = await runClaude({ FAKE_AGENT_LINES: '0', FAKE_AGENT_PRINT: CLI_ERROR_RESULT });

    expect(result).toMatchObject({ success: false, exitCode: 0 });
    expect(result.error?.message).toBe('API Error: 529 Overloaded');
    expect(errorsOf(log)).toHaveLength(1);
  });

  it('a junk line is stored as a skipped-line error but does not fail the run', async () => {
    const { result, log } = await runClaude({ FAKE_AGENT_PRINT: 'Update available: run claude update\n' });

    expect(result.success).toBe(true);
    expect(errorsOf(log)).toHaveLength(1);
    expect(errorsOf(log)[0]).toMatchObject({ errorCode: 'LLM_BAD_RESPONSE', includeInContext: false });
  });

  it('a process killed by someone else', async () => {
    const { result, log } = await runClaude({
      FAKE_AGENT_LINES: '2',
      FAKE_AGENT_STDERR: 'out of memory\n',
      FAKE_AGENT_KILL_SELF: 'SIGTERM',
    });

    expect(result).toMatchObject({ success: false, signal: 'SIGTERM' });
    expect(result.error).toEqual({
      code: 'AGENT_FAILED',
      message: 'Claude Code was killed by SIGTERM:\nout of memory',
    });
    expect(errorsOf(log)).toHaveLength(1);
  });

  it('a background process left holding stdout does not keep the run open', async () => {
    const pidFile = `${await tempDir()}/orphan.pid`;
    try {
      const { result } = await runClaude({ FAKE_AGENT_ORPHAN: '1', FAKE_AGENT_ORPHAN_PID_FILE: pidFile });

      expect(result.success).toBe(true);
      // The run ended while the orphan (10 minutes, beyond any test timeout) still held stdout open.
      const orphan = Number((await readFile(pidFile, 'utf8')).trim());
      expect(isAlive(orphan)).toBe(true);
    } finally {
      // The orphan would otherwise outlive the test by minutes.
      await killPidFrom(pidFile);
    }
  });

  it('a command that does not exist: AGENT_FAILED "… not found", no transcript', async () => {
    const { result, log } = await runClaude({}, 'cairn-no-such-agent-cli');

    expect(result).toMatchObject({ success: false, exitCode: null, signal: null, stderr: '' });
    expect(result.error?.code).toBe('AGENT_FAILED');
    expect(result.error?.message).toMatch(/^cairn-no-such-agent-cli not found: install Claude Code/);
    expect(result.transcriptRef).toBeUndefined();
    expect(log.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(log[1]).toMatchObject({ partType: 'error', errorCode: 'AGENT_FAILED' });
  });

  it('arguments Node refuses fail the run like a spawn failure', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand(),
    });

    const result = await executor.run({ prompt: 'a NUL \u0000 byte' });

    expect(result.success).toBe(false);
    expect(result.error?.message).toMatch(/^Could not start .*null bytes/);
  });

  it('a working directory that does not exist is named as such', async () => {
    const store = createMemoryConversationStore();
    const cwd = `${await tempDir()}/missing`;
    const executor = createAgentExecutor({ store, agent: 'gemini-cli', cwd, ...fakeAgentCommand() });

    const result = await executor.run({ prompt: 'hello' });

    expect(result.success).toBe(false);
    expect(result.error).toEqual({
      code: 'AGENT_FAILED',
      message: `The working directory ${cwd} does not exist`,
    });
  });
});
