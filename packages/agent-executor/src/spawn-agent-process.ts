import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Default wait between SIGTERM and SIGKILL when a run is aborted. */
export const DEFAULT_KILL_GRACE_MS = 5000;

// After the process exits, how long its stdout/stderr may stay open: a background grandchild (a dev
// server the agent started) can hold the pipes forever, and the run must still end.
const STDIO_CLOSE_GRACE_MS = 2000;

export interface AgentProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborting sends SIGTERM, then SIGKILL after `killGraceMs`. */
  signal?: AbortSignal;
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
  /** It outlived the grace period after SIGTERM and was sent SIGKILL. */
  killed: boolean;
}

/**
 * Runs one agent process without a shell (arguments reach it verbatim, nothing is interpreted),
 * stdin closed, and resolves once it has exited and its output is read. Never rejects. Signals go
 * to the agent process only: processes it started and left behind are its own business.
 */
export function spawnAgentProcess(options: AgentProcessOptions): Promise<AgentProcessExit> {
  const { signal } = options;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  if (signal?.aborted)
    return Promise.resolve({ started: false, exitCode: null, signal: null, aborted: true, killed: false });

  return new Promise((resolve) => {
    let aborted = false;
    let killed = false;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    let exit: Pick<AgentProcessExit, 'exitCode' | 'signal'> | undefined;

    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        // Stdin is closed: a CLI waiting for piped input would otherwise hang (or warn) forever.
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      // Arguments Node refuses outright (a NUL byte in the prompt) fail like a spawn error.
      const spawnError = error as NodeJS.ErrnoException;
      resolve({ started: false, spawnError, exitCode: null, signal: null, aborted: false, killed: false });
      return;
    }

    const onAbort = () => {
      // An abort after the exit changes nothing: the run already ended on its own.
      if (exit !== undefined || child.pid === undefined) return;
      aborted = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => {
        killed = child.kill('SIGKILL');
      }, killGraceMs);
    };

    const finish = (result: AgentProcessExit) => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      resolve(result);
    };

    child.stdout.on('data', options.onStdout);
    child.stderr.on('data', options.onStderr);
    child.on('error', (error: NodeJS.ErrnoException) => {
      // After a successful start, 'error' only reports a failed kill; the exit still comes.
      if (child.pid !== undefined) return;
      finish({ started: false, spawnError: error, exitCode: null, signal: null, aborted, killed: false });
    });
    child.on('exit', (exitCode, exitSignal) => {
      exit = { exitCode, signal: exitSignal };
      clearTimeout(killTimer);
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
      });
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
