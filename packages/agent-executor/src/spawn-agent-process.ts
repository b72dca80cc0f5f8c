import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { descendantsOf, type ProcessEntry, processGroupOf } from './process-tree.js';

/** Default wait before each escalation of an abort (stop signal → SIGTERM → SIGKILL). */
export const DEFAULT_KILL_GRACE_MS = 5000;

// POSIX gives the agent its own process group, so an abort reaches every process of the run (a
// tool's shell command too); Windows has no groups and no negative pids.
const GROUPS = process.platform !== 'win32';

// While an aborted CLI winds down, how often its process tree is read (see `descendantsOf`).
const TREE_POLL_MS = 200;

// After the process exits, how long its stdout/stderr may stay open: a background grandchild (a dev
// server the agent started) can hold the pipes forever, and the run must still end.
const STDIO_CLOSE_GRACE_MS = 2000;

export interface AgentProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Aborting sends `stopSignal` to the process group, then SIGTERM and SIGKILL, each after
   * `killGraceMs`; what is left of the group once the process exited is killed.
   */
  signal?: AbortSignal;
  /** Default SIGTERM. */
  stopSignal?: NodeJS.Signals;
  /** Called when an abort starts stopping the process (not for one that came after its exit). */
  onStopping?(): void;
  killGraceMs?: number;
  /** Stdout bytes as they arrive. Must not throw. */
  onStdout(chunk: Buffer): void;
  /** Stderr bytes as they arrive. Must not throw. */
  onStderr(chunk: Buffer): void;
}

/** How the process ended. */
export interface AgentProcessExit {
  /** The process ran (false when it could not start or the signal was aborted before). */
  started: boolean;
  /** Set when the process never started (`ENOENT`: no such executable or working directory). */
  spawnError?: NodeJS.ErrnoException;
  /** The exit code, or null when a signal ended it (or it never started). */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The abort signal fired before the process ended (it may have exited on its own meanwhile). */
  aborted: boolean;
  /** It outlived the grace periods after the abort and was sent SIGKILL. */
  killed: boolean;
  /** The signals the abort sent, in order (the stop signal, then any escalation). */
  signalsSent: NodeJS.Signals[];
}

/** Sends `signal` to the process group led by `pid`; false when the group is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: no process is left in the group.
    return false;
  }
}

/**
 * Kills what an aborted run left: the CLI's own group, and each process seen in its tree while it
 * wound down with that process's group (a command started in a group of its own). A pid is only
 * signalled while it is still in the group it was seen in, so a reused pid is never hit.
 */
function killLeftovers(groupLeader: number, seen: ReadonlyMap<number, ProcessEntry>): void {
  signalGroup(groupLeader, 'SIGKILL');
  const ownGroup = processGroupOf(process.pid);
  for (const { pid, pgid } of seen.values()) {
    if (processGroupOf(pid) !== pgid) continue;
    if (pgid !== ownGroup && pgid !== groupLeader) signalGroup(pgid, 'SIGKILL');
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It exited meanwhile.
    }
  }
}

// The groups of agents still running. A host process that exits meanwhile (a second Ctrl-C) takes
// them down with it, their tools' commands included: detached, they would otherwise outlive it, as
// no terminal signal reaches them.
const runningGroups = new Set<number>();
const killRunningGroups = () => {
  for (const pid of runningGroups) {
    killLeftovers(pid, new Map(descendantsOf(pid).map((entry) => [entry.pid, entry])));
  }
};

/**
 * Runs one agent process without a shell (arguments reach it verbatim, nothing is interpreted),
 * stdin closed, in a process group of its own, and resolves once it has exited and its output is
 * read. Never rejects. An abort stops the whole group and leaves none of its processes alive; a
 * run that ends by itself leaves what it started in the background alone (a dev server).
 */
export function spawnAgentProcess(options: AgentProcessOptions): Promise<AgentProcessExit> {
  const { signal } = options;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const stopSignal = options.stopSignal ?? 'SIGTERM';
  if (signal?.aborted)
    return Promise.resolve({
      started: false,
      exitCode: null,
      signal: null,
      aborted: true,
      killed: false,
      signalsSent: [],
    });

  return new Promise((resolve) => {
    let aborted = false;
    let killed = false;
    const signalsSent: NodeJS.Signals[] = [];
    let killTimer: NodeJS.Timeout | undefined;
    let treeTimer: NodeJS.Timeout | undefined;
    const seen = new Map<number, ProcessEntry>();
    let closeTimer: NodeJS.Timeout | undefined;
    let exit: Pick<AgentProcessExit, 'exitCode' | 'signal'> | undefined;

    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        // Stdin is closed: a CLI waiting for piped input would otherwise hang (or warn) forever.
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: GROUPS,
        windowsHide: true,
      });
    } catch (error) {
      // Arguments Node refuses outright (a NUL byte in the prompt) fail like a spawn error.
      const spawnError = error as NodeJS.ErrnoException;
      const failed = { exitCode: null, signal: null, aborted: false, killed: false, signalsSent };
      resolve({ started: false, spawnError, ...failed });
      return;
    }

    const send = (sent: NodeJS.Signals) => {
      signalsSent.push(sent);
      const pid = child.pid;
      if (GROUPS && pid !== undefined && signalGroup(pid, sent)) return true;
      return child.kill(sent);
    };
    // The stop signal, then SIGTERM (unless that was the stop signal), then SIGKILL.
    const escalation = [...new Set<NodeJS.Signals>([stopSignal, 'SIGTERM', 'SIGKILL'])];
    const escalate = (step: number) => {
      const next = escalation[step];
      if (next === undefined || exit !== undefined) return;
      const delivered = send(next);
      if (next === 'SIGKILL') killed = delivered;
      else killTimer = setTimeout(() => escalate(step + 1), killGraceMs);
    };

    const onAbort = () => {
      // An abort after the exit changes nothing: the run already ended on its own.
      const { pid } = child;
      if (exit !== undefined || pid === undefined) return;
      aborted = true;
      options.onStopping?.();
      if (GROUPS) {
        const readTree = () => {
          for (const entry of descendantsOf(pid)) seen.set(entry.pid, entry);
        };
        readTree();
        treeTimer = setInterval(readTree, TREE_POLL_MS);
      }
      escalate(0);
    };

    if (GROUPS && child.pid !== undefined) {
      if (runningGroups.size === 0) process.on('exit', killRunningGroups);
      runningGroups.add(child.pid);
    }
    const untrack = () => {
      if (child.pid === undefined || !runningGroups.delete(child.pid)) return;
      if (runningGroups.size === 0) process.off('exit', killRunningGroups);
    };

    const finish = (result: AgentProcessExit) => {
      untrack();
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      clearInterval(treeTimer);
      clearTimeout(closeTimer);
      resolve(result);
    };

    child.stdout.on('data', options.onStdout);
    child.stderr.on('data', options.onStderr);
    child.on('error', (error: NodeJS.ErrnoException) => {
      // After a successful start, 'error' only reports a failed kill; the exit still comes.
      if (child.pid !== undefined) return;
      finish({
        started: false,
        spawnError: error,
        exitCode: null,
        signal: null,
        aborted,
        killed: false,
        signalsSent,
      });
    });
    child.on('exit', (exitCode, exitSignal) => {
      exit = { exitCode, signal: exitSignal };
      untrack();
      clearTimeout(killTimer);
      clearInterval(treeTimer);
      // An aborted run leaves nothing behind: a tool's command the CLI did not stop (Gemini CLI
      // leaves its shell command running on SIGINT) is killed.
      if (aborted && GROUPS && child.pid !== undefined) killLeftovers(child.pid, seen);
      closeTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, STDIO_CLOSE_GRACE_MS);
    });
    child.on('close', (exitCode, exitSignal) => {
      if (child.pid === undefined) return;
      finish({
        started: true,
        exitCode: exit?.exitCode ?? exitCode,
        signal: exit?.signal ?? exitSignal,
        aborted,
        killed,
        signalsSent,
      });
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
