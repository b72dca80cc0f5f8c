import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { definedFields } from '@cairn/core';
import type { RecordedRequest } from '../script-turn.js';
import type { AgentCliCommand, AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentCliFixturePlan } from './agent-cli-fixture-plans.js';
import type { AgentCliScenario } from './agent-cli-scenarios.js';
import {
  type AgentCliIsolation,
  agentCliIsolation,
  isolatedCommand,
  noteIsolationFallback,
} from './network-isolation.js';
import { agentCliOfflineEnvironment } from './offline-environment.js';
import { SCENARIO_WORK_DIRECTORY } from './recorded-fixture-cwd.js';
import { startAgentCliStandIn } from './start-agent-cli-stand-in.js';

export interface RunAgentCliScenarioOptions {
  cli: AgentCliDefinition;
  /** `import.meta.url` of the caller: the CLI is resolved from the caller's package. */
  callerUrl: string | URL;
  run: Omit<AgentCliFixturePlan, 'fixture' | 'resumes' | 'note' | 'timeoutMs' | 'recordStderr'> & {
    resumeSessionId?: string;
  };
  /**
   * The run's directory: its `work/` is the CLI's cwd, its `home/` a fresh `HOME`. Reuse the
   * directory of an earlier run to resume its session. Default: a new temporary directory.
   */
  root?: string;
  /** Default `agentCliScenarios`. */
  scenarios?: Record<string, AgentCliScenario>;
  /** SIGKILL to the process group after this long; default 180 s. */
  timeoutMs?: number;
}

export interface AgentCliRun {
  /** The CLI's stdout, byte for byte. */
  stdout: Buffer;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the stand-in received, in order. */
  requests: RecordedRequest[];
  isolation: AgentCliIsolation;
  /** The CLI's own command line (without the isolation wrapper). */
  command: string[];
  /** Names of the environment variables the CLI got. */
  envNames: string[];
  root: string;
  cwd: string;
  home: string;
  /** The `session_id` of the stream's first line that has one. */
  sessionId: string | undefined;
  /** The installed CLI package's version. */
  version: string;
  /** The run was ended by the harness's timeout. */
  timedOut: boolean;
}

/** Finds a pinned CLI with the caller's module resolution (so a package resolves its own devDependency). */
export function resolveAgentCli(cli: AgentCliDefinition, callerUrl: string | URL): AgentCliCommand {
  return cli.resolve(createRequire(callerUrl));
}

function firstSessionId(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    try {
      const value = JSON.parse(line) as { session_id?: unknown };
      if (typeof value.session_id === 'string') return value.session_id;
    } catch {
      // Not a JSON line (a CLI's stray output): keep looking.
    }
  }
  return undefined;
}

// In a namespace the CLI is the forwarder's only child; Linux lists a process's children in /proc.
function cliProcessId(pid: number | undefined, isolated: boolean): number | undefined {
  if (pid === undefined || !isolated) return pid;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    return children[0] ? Number(children[0]) : undefined;
  } catch {
    return undefined;
  }
}

/** Signals a process (a group when negative), if it is still there. */
function signalProcess(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/**
 * Runs one scenario with one real CLI against its stand-in, offline: a fresh `HOME` with the
 * CLI's settings, an environment built from scratch, and (where the machine allows) a private
 * network namespace. The CLI runs in its own process group; whatever of it is left when it exits
 * (an orphaned shell command) is killed.
 */
export async function runAgentCliScenario(options: RunAgentCliScenarioOptions): Promise<AgentCliRun> {
  const { cli, run } = options;
  const resolved = resolveAgentCli(cli, options.callerUrl);
  const root = options.root ?? (await mkdtemp(join(tmpdir(), 'cairn-agent-cli-')));
  const cwd = join(root, SCENARIO_WORK_DIRECTORY);
  const home = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  const settings = {
    prompt: run.prompt,
    permissions: run.permissions,
    ...definedFields({ resumeSessionId: run.resumeSessionId }),
  };
  const standIn = await startAgentCliStandIn({
    wire: cli.wire,
    dialect: cli.dialect,
    cwd,
    ...definedFields({ todoTool: run.todoTool, scenarios: options.scenarios }),
  });
  try {
    await cli.writeSettings(home, settings, standIn.baseURL);
    const env = agentCliOfflineEnvironment({
      home,
      origin: standIn.origin,
      extra: { ...cli.env?.({ home, baseURL: standIn.baseURL }), ...run.env },
    });
    const command = [resolved.command, ...resolved.args, ...cli.args(settings)];
    const isolation = agentCliIsolation();
    noteIsolationFallback(isolation);
    const [program, ...args] = command as [string, ...string[]];
    const spawned =
      isolation.kind === 'network-namespace'
        ? isolatedCommand(program, args, { socketPath: standIn.socketPath, port: standIn.port })
        : { command: program, args };
    const outcome = await new Promise<{
      stdout: Buffer;
      stderr: string;
      code: number | null;
      signal: NodeJS.Signals | null;
      timedOut: boolean;
    }>((resolvePromise, reject) => {
      const child = spawn(spawned.command, spawned.args, {
        cwd,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const stdout: Buffer[] = [];
      let stdoutText = '';
      let stderr = '';
      let timedOut = false;
      let interruptArmed = run.interrupt !== undefined;
      let interruptTimer: NodeJS.Timeout | undefined;
      // A negative pid names the process group the detached child leads.
      const group = child.pid === undefined ? undefined : -child.pid;
      const timer = setTimeout(() => {
        timedOut = true;
        signalProcess(group, 'SIGKILL');
      }, options.timeoutMs ?? 180_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout.push(chunk);
        if (!interruptArmed || run.interrupt === undefined) return;
        stdoutText += chunk.toString('utf8');
        if (!stdoutText.includes(run.interrupt.afterStdout)) return;
        interruptArmed = false;
        const { signal, delayMs, target } = run.interrupt;
        interruptTimer = setTimeout(() => {
          const pid =
            target === 'group' ? group : cliProcessId(child.pid, isolation.kind === 'network-namespace');
          signalProcess(pid, signal);
        }, delayMs);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('exit', () => {
        clearTimeout(interruptTimer);
        // Anything of the run still alive (a shell command the CLI left behind) goes with it.
        signalProcess(group, 'SIGKILL');
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolvePromise({ stdout: Buffer.concat(stdout), stderr, code, signal, timedOut });
      });
    });
    return {
      ...outcome,
      requests: standIn.requests,
      isolation,
      command,
      envNames: Object.keys(env).sort(),
      root,
      cwd,
      home,
      sessionId: (cli.sessionIdOf ?? firstSessionId)(outcome.stdout.toString('utf8')),
      version: resolved.version,
    };
  } finally {
    await standIn.close();
  }
}
