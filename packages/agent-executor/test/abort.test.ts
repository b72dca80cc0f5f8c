import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentOutput } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import {
  type AgentCliDefinition,
  claudeCodeCli,
  createAgentExecutor,
  geminiCli,
  qwenCodeCli,
} from '../src/index.js';
import {
  CLAUDE_CODE_FIXTURE,
  eventually,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  GEMINI_CLI_FIXTURE,
  isRunning,
  killPid,
  processGroupMembers,
  readPids,
  tempDir,
} from './support.js';

// The lines Claude Code 2.1.197 writes on SIGINT during a tool call (shape of the real capture
// `claude-sigint-sleep.jsonl`): the call rejected, its status line, an `error_during_execution` result.
const CLAUDE_SIGINT_LINES = [
  {
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01MockA3883930001xxxxxxx',
          content: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
          is_error: true,
        },
      ],
    },
  },
  {
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }],
    },
  },
  {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    num_turns: 1,
    session_id: 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490',
    terminal_reason: 'aborted_tools',
  },
];

interface AbortedRun {
  agent: AgentCliDefinition;
  fixture: string;
  /** Lines replayed before the agent starts its "tool" and waits. */
  lines: number;
  env?: Record<string, string>;
  killGraceMs?: number;
}

/**
 * A run of the fake agent that starts a tool and waits; aborted once the tool runs. Returns the
 * result, the stored log, and the processes of the run: the agent's pids (the first leads its
 * process group) and the tool's.
 */
async function abortedRun({ agent, fixture, lines, env = {}, killGraceMs = 10 * 60_000 }: AbortedRun) {
  const dir = await tempDir();
  const pidFile = join(dir, 'pids');
  const toolPidFile = join(dir, 'tool-pid');
  const store = createMemoryConversationStore();
  const executor = createAgentExecutor({
    store,
    agent,
    cwd: dir,
    killGraceMs,
    ...fakeAgentCommand({
      FAKE_AGENT_FIXTURE: fixture,
      FAKE_AGENT_LINES: String(lines),
      FAKE_AGENT_TOOL: '1',
      FAKE_AGENT_PID_FILE: pidFile,
      FAKE_AGENT_TOOL_PID_FILE: toolPidFile,
      ...env,
    }),
  });
  const controller = new AbortController();
  const events: AgentOutput[] = [];
  const onEvent = (event: AgentOutput) => {
    events.push(event);
    // Aborted once the tool runs, as a user would stop a long `sleep`.
    if (event.type === 'tool_use')
      void eventually(() => existsSync(toolPidFile), Boolean).then(() => controller.abort());
  };
  try {
    const result = await executor.run({ prompt: FIXTURE_PROMPT, signal: controller.signal, onEvent });
    const agentPids = await readPids(pidFile);
    const [toolPid] = await readPids(toolPidFile);
    return { result, events, log: await store.load(result.conversationId), agentPids, toolPid };
  } finally {
    // Nothing may outlive a failing test either.
    for (const pid of [...(await readPids(pidFile)), ...(await readPids(toolPidFile))]) killPid(pid);
  }
}

/** Every process of the run, once the run ended: the agent's group, each agent pid, the tool. */
async function survivors(run: { agentPids: number[]; toolPid: number | undefined }) {
  const [leader] = run.agentPids;
  if (leader === undefined || run.toolPid === undefined) throw new Error('the fake agent did not start');
  const list = () => ({
    group: processGroupMembers(leader),
    running: [...run.agentPids, run.toolPid].filter((pid) => pid !== undefined && isRunning(pid)),
  });
  // SIGKILL is delivered at once, but a process takes a moment to be gone.
  return eventually(list, (found) => found.group.length === 0 && found.running.length === 0);
}

const claudeLike = async () => {
  const sigintLines = join(await tempDir(), 'sigint.jsonl');
  await writeFile(sigintLines, `${CLAUDE_SIGINT_LINES.map((line) => JSON.stringify(line)).join('\n')}\n`);
  // SIGTERM kills only the tool and the agent goes on with the rest of the transcript (more turns).
  return { FAKE_AGENT_ON_SIGTERM: 'continue', FAKE_AGENT_ON_SIGINT: sigintLines };
};

// Gemini CLI 0.61.0 as the fake agent plays it: it re-launches itself as a child, its shell command
// runs in a group of its own and outlives SIGTERM, and on SIGINT it exits 0 with no tool result and
// no result line.
const GEMINI_LIKE = {
  FAKE_AGENT_RELAUNCH: '1',
  FAKE_AGENT_TOOL_DETACHED: '1',
  FAKE_AGENT_TOOL_STUBBORN: '1',
  FAKE_AGENT_ON_SIGINT: '/dev/null',
  FAKE_AGENT_SIGINT_EXIT_CODE: '0',
};
const geminiLikeRun = (agent: AgentCliDefinition) =>
  abortedRun({ agent, fixture: GEMINI_CLI_FIXTURE, lines: 5, env: GEMINI_LIKE });

describe('aborting a run', () => {
  it('Claude Code gets SIGINT, which ends its turn: no new turn stored, no process left', async () => {
    const run = await abortedRun({
      agent: claudeCodeCli,
      fixture: CLAUDE_CODE_FIXTURE,
      lines: 3,
      env: await claudeLike(),
    });
    const { result, log, events } = run;

    expect(result).toMatchObject({ success: false, exitCode: 1, signal: null });
    // Its `[Request interrupted …]` line is the CLI's status: shown as one, never stored as the
    // user's words, and not counted as answer left out (a status is never stored).
    expect(result.error).toEqual({ code: 'LLM_ABORTED', message: 'The run was aborted' });
    expect(events.filter((event) => event.type === 'status')).toEqual([
      expect.objectContaining({
        status: 'interrupted',
        message: '[Request interrupted by user for tool use]',
      }),
    ]);
    expect(log.map((message) => message.errorCode ?? message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'LLM_ABORTED',
    ]);
    // The CLI's own rejection answers the call.
    expect(log[2]?.content).toContain("doesn't want to proceed");
    expect(log.some((message) => message.content?.toString().includes('Now I will edit'))).toBe(false);
    expect(await survivors(run)).toEqual({ group: [], running: [] });
  });

  it('a CLI that carries on after its stop signal: what it writes after the abort is not stored', async () => {
    // The old way: SIGTERM, on which Claude Code kills the tool and starts its next turn.
    const run = await abortedRun({
      agent: { ...claudeCodeCli, stop: { signal: 'SIGTERM' } },
      fixture: CLAUDE_CODE_FIXTURE,
      lines: 3,
      env: await claudeLike(),
    });
    const { result, log, events } = run;

    expect(result).toMatchObject({ success: false, exitCode: 0 });
    expect(result.error?.code).toBe('LLM_ABORTED');
    expect(result.error?.message).toMatch(
      /^The run was aborted; \d+ items Claude Code wrote after the abort were not stored$/,
    );
    expect(result.result).toBeUndefined();
    expect(result.text).toBe('');
    // Its final result still counts as status: the session can be resumed, the cost is known.
    expect(result.sessionId).toBe('e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490');
    expect(log.map((message) => message.errorCode ?? message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'LLM_ABORTED',
    ]);
    // The result of the call made before the abort is the CLI's, and answers it.
    expect(log[2]).toMatchObject({ toolName: 'Write', isError: false });
    expect(
      events.filter((event) => event.type === 'text').map((event) => event.type === 'text' && event.text),
    ).toEqual(["I'll create hello.txt with a greeting."]);
    expect(await survivors(run)).toEqual({ group: [], running: [] });
  });

  it('Gemini CLI runs without re-launching and gets SIGINT; its shell command, in a group of its own, is killed', async () => {
    const run = await geminiLikeRun(geminiCli);
    const { result, log } = run;

    expect(run.agentPids).toHaveLength(1);
    expect(result).toMatchObject({ success: false, exitCode: 0, signal: null });
    expect(result.error).toEqual({ code: 'LLM_ABORTED', message: 'The run was aborted' });
    expect(log.map((message) => message.errorCode ?? message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'LLM_ABORTED',
    ]);
    expect(log[2]).toMatchObject({ interrupted: true });
    expect(await survivors(run)).toEqual({ group: [], running: [] });
  });

  it('a re-launching CLI that forwards no signal is still stopped: the signal goes to its whole group', async () => {
    const run = await geminiLikeRun({ ...geminiCli, env: {} });

    expect(run.agentPids).toHaveLength(2);
    expect(run.result).toMatchObject({ success: false, exitCode: 0, error: { code: 'LLM_ABORTED' } });
    expect(await survivors(run)).toEqual({ group: [], running: [] });
  });

  it('escalates to SIGTERM, then SIGKILL, when the agent ignores its stop signal; its tool dies too', async () => {
    const run = await abortedRun({
      agent: claudeCodeCli,
      fixture: CLAUDE_CODE_FIXTURE,
      lines: 3,
      env: { FAKE_AGENT_IGNORE_SIGNALS: '1', FAKE_AGENT_TOOL_STUBBORN: '1' },
      killGraceMs: 300,
    });

    expect(run.result).toMatchObject({ success: false, signal: 'SIGKILL' });
    expect(run.result.error).toEqual({
      code: 'LLM_ABORTED',
      message:
        'The run was aborted; Claude Code did not stop on SIGINT within 300 ms: sent SIGTERM, then SIGKILL',
    });
    expect(run.log.at(-1)).toMatchObject({ errorCode: 'LLM_ABORTED' });
    expect(await survivors(run)).toEqual({ group: [], running: [] });
  });

  it('Qwen Code, which SIGINT and SIGTERM do not stop, gets SIGKILL at once: no grace to wait out', async () => {
    const run = await abortedRun({
      agent: qwenCodeCli,
      fixture: fileURLToPath(new URL('../../agent-cli/fixtures/real/qwen-code/main.jsonl', import.meta.url)),
      lines: 3,
      // Qwen Code 0.15.10 finishes its turn on SIGINT/SIGTERM; the grace (10 min) would outlast the test.
      env: { FAKE_AGENT_IGNORE_SIGNALS: '1', FAKE_AGENT_TOOL_STUBBORN: '1' },
    });

    expect(run.result).toMatchObject({ success: false, signal: 'SIGKILL' });
    expect(run.result.error).toEqual({ code: 'LLM_ABORTED', message: 'The run was aborted' });
    expect(run.log.at(-1)).toMatchObject({ errorCode: 'LLM_ABORTED' });
    expect(await survivors(run)).toEqual({ group: [], running: [] });
  });

  it('a host process that exits mid-run takes the agent and its tool (in a group of its own) with it', async () => {
    const dir = await tempDir();
    const pidFile = join(dir, 'pids');
    const toolPidFile = join(dir, 'tool-pid');
    const child = spawn(process.execPath, [fileURLToPath(new URL('./exiting-host.mjs', import.meta.url))], {
      cwd: dir,
      stdio: 'inherit',
      env: {
        ...process.env,
        FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE,
        FAKE_AGENT_LINES: '3',
        FAKE_AGENT_TOOL: '1',
        // In a group of its own, as Claude Code's and Gemini CLI's shell commands are.
        FAKE_AGENT_TOOL_DETACHED: '1',
        FAKE_AGENT_PID_FILE: pidFile,
        FAKE_AGENT_TOOL_PID_FILE: toolPidFile,
      },
    });
    try {
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      const agentPids = await readPids(pidFile);
      const [toolPid] = await readPids(toolPidFile);
      expect(agentPids).toHaveLength(1);
      expect(await survivors({ agentPids, toolPid })).toEqual({ group: [], running: [] });
    } finally {
      for (const pid of [...(await readPids(pidFile)), ...(await readPids(toolPidFile))]) killPid(pid);
    }
  });

  it('an already aborted signal starts no process but records the prompt and the abort', async () => {
    const store = createMemoryConversationStore();
    const argvFile = `${await tempDir()}/argv.jsonl`;
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_ARGV_FILE: argvFile }),
    });

    const result = await executor.run({ prompt: 'never sent', signal: AbortSignal.abort() });

    expect(result).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    expect(result.transcriptRef).toBeUndefined();
    expect(existsSync(argvFile)).toBe(false);
    const log = await store.load(result.conversationId);
    expect(log.map((message) => message.errorCode ?? message.role)).toEqual(['user', 'LLM_ABORTED']);
  });
});
