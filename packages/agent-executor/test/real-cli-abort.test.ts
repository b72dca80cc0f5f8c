// Aborting the real Claude Code, Gemini CLI, Codex CLI and Qwen Code (the pinned versions of the
// `agent-clis` catalog), run by the executor offline against the scripted stand-in of
// `@cairn/testing/agent-clis`, inside a private network namespace where the machine allows it.
// Scenario `sleep` (Qwen Code: `sleep-python`): a text and a 30 s shell command, aborted 2 s into
// the command. Never skipped: a CLI that is not installed fails.
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentOutput } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { simulatedDelay } from '@cairn/testing';
import {
  type AgentCliRunSettings,
  agentCliIsolation,
  agentCliOfflineEnvironment,
  agentClis,
  isolatedCommand,
  resolveAgentCli,
  startAgentCliStandIn,
} from '@cairn/testing/agent-clis';
import { scaledTimeout } from '@cairn/vitest-config';
import { describe, expect, it } from 'vitest';
import { type AgentCliName, type AgentPermissions, createAgentExecutor } from '../src/index.js';
import { eventually, isRunning, processGroupMembers, processGroupOf, tempDir } from './support.js';

const isolation = agentCliIsolation();
const isolated = isolation.kind === 'network-namespace';

/** The running processes whose working directory is `cwd` (the run's own directory). */
function processesIn(cwd: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readlinkSync(`/proc/${name}/cwd`) === cwd;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(isRunning);
}

/** The network namespace of `pid` (`net:[…]`). */
function namespaceOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

/** The running processes in network namespace `netns`: every process of an isolated run. */
function inNamespace(netns: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => namespaceOf(pid) === netns && isRunning(pid));
}

// Each CLI's permissions for the command, and its scenario: Qwen Code refuses a plain `sleep 30`
// as a blocking command, so it waits in Python.
const RUNS: Record<AgentCliName, { permissions: AgentPermissions; prompt: string }> = {
  'claude-code': {
    permissions: { mode: 'read-only', allowedTools: ['Bash(sleep:*)'] },
    prompt: 'Wait. [scenario:sleep]',
  },
  'gemini-cli': { permissions: { mode: 'full' }, prompt: 'Wait. [scenario:sleep]' },
  codex: { permissions: { mode: 'full' }, prompt: 'Wait. [scenario:sleep]' },
  'qwen-code': { permissions: { mode: 'full' }, prompt: 'Wait. [scenario:sleep-python]' },
};

describe.each(Object.keys(RUNS) as AgentCliName[])('aborting the real %s', (name) => {
  const cli = agentClis[name];
  if (cli === undefined) throw new Error(`no agent CLI definition "${name}"`);
  // Throws when the pinned CLI is not installed: the test fails rather than being skipped.
  const resolved = resolveAgentCli(cli, import.meta.url);
  const how = isolated ? isolation.description : `loopback only: ${isolation.reason}`;
  const { permissions, prompt } = RUNS[name];

  it(
    `stops ${cli.programName} ${resolved.version} 2 s into a 30 s command (${how}): aborted, nothing after the abort stored, no process of the run left`,
    async () => {
      const root = await tempDir();
      const cwd = join(root, 'work');
      const home = join(root, 'home');
      await mkdir(cwd, { recursive: true });
      await mkdir(home, { recursive: true });
      // A project as users have one: Codex CLI refuses to run outside a git repository.
      execFileSync('git', ['init', '--quiet', cwd]);
      const settings: AgentCliRunSettings = { prompt, permissions: ['Bash(sleep:*)'] };
      const standIn = await startAgentCliStandIn({ wire: cli.wire, dialect: cli.dialect, cwd });
      await cli.writeSettings(home, settings, standIn.baseURL);
      try {
        // The executor appends the CLI's own arguments (prompt, output format, permissions).
        const spawned = isolated
          ? isolatedCommand(resolved.command, resolved.args, {
              socketPath: standIn.socketPath,
              port: standIn.port,
            })
          : { command: resolved.command, args: resolved.args };
        const store = createMemoryConversationStore();
        const executor = createAgentExecutor({
          store,
          agent: name,
          cwd,
          command: spawned.command,
          commandArgs: spawned.args,
          env: agentCliOfflineEnvironment({
            home,
            origin: standIn.origin,
            extra: cli.env?.({ home, baseURL: standIn.baseURL }) ?? {},
          }),
          permissions,
        });

        // The run's processes, found while the tool runs by their working directory (the run's
        // own): the executor's child leads a group of its own; in a namespace, everything of the
        // run is in that namespace too.
        let group: number | undefined;
        let netns: string | undefined;
        let abortedAt = 0;
        const controller = new AbortController();
        const onEvent = (event: AgentOutput) => {
          if (event.type !== 'tool_use' || abortedAt !== 0) return;
          abortedAt = -1;
          const [first] = processesIn(cwd);
          if (first !== undefined) {
            group = processGroupOf(first);
            netns = isolated ? namespaceOf(first) : undefined;
          }
          // The delay is the scenario: the abort comes while `sleep 30` runs.
          void simulatedDelay(2000).then(() => {
            abortedAt = Date.now();
            controller.abort();
          });
        };
        const result = await executor.run({ prompt, signal: controller.signal, onEvent });
        const stoppedMs = Date.now() - abortedAt;
        const log = await store.load(result.conversationId);
        const left = await eventually(
          () => ({
            group: group === undefined ? [] : processGroupMembers(group),
            namespace: netns === undefined ? [] : inNamespace(netns),
            directory: processesIn(cwd),
          }),
          (found) => found.group.length + found.namespace.length + found.directory.length === 0,
        );
        console.log(
          `${name} ${resolved.version} (${how}): aborted 2 s into a 30 s command; run ended ${stoppedMs} ms after the abort, exit ${result.exitCode}, signal ${result.signal}, error ${JSON.stringify(result.error)}; stored ${log.map((message) => message.errorCode ?? message.role).join(', ')}; group ${group}, namespace ${netns}: left ${left.group.length} in the group, ${left.namespace.length} in the namespace, ${left.directory.length} in the run's directory`,
        );

        expect(abortedAt).toBeGreaterThan(0);
        // The run's processes were found, so the listing after the abort means something.
        expect(group).toBeGreaterThan(0);
        if (isolated) expect(netns).toMatch(/^net:\[\d+\]$/);
        expect(netns === undefined || netns !== namespaceOf(process.pid)).toBe(true);
        expect(result).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
        expect(log[0]).toMatchObject({ role: 'user', content: prompt });
        expect(log.at(-1)).toMatchObject({ partType: 'error', errorCode: 'LLM_ABORTED' });
        // Nothing after the abort is an answer: no "Slept.", and the sleep's call is answered as interrupted.
        expect(log.some((message) => String(message.content).includes('Slept.'))).toBe(false);
        const tool = log.find((message) => message.role === 'tool');
        expect(tool?.isError).toBe(true);
        expect(left).toEqual({ group: [], namespace: [], directory: [] });
      } finally {
        await standIn.close();
        await rm(root, { recursive: true, force: true });
      }
    },
    scaledTimeout(120_000),
  );
});
