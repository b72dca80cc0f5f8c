import type { ChildProcess } from 'node:child_process';
import { definedFields } from '@cairn/core';
import { createOutputCapture } from './output-capture.js';
import { KILL_GRACE_MS, spawnShell, stopProcessTree } from './process-tree.js';

export interface ShellCommandRequest {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Per stream. */
  maxOutputBytes: number;
  signal: AbortSignal;
}

export interface ShellCommandOutcome {
  stdout: string;
  stderr: string;
  /** Null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when it was stopped: it ran out of time, or the call was cancelled. */
  stoppedBy?: 'timeout' | 'abort';
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Runs a shell command to its end, or until `timeoutMs` passes or `signal` aborts. Either way,
 * whatever it started is stopped (its process group) before this settles: nothing outlives the call.
 */
export async function runShellCommand(request: ShellCommandRequest): Promise<ShellCommandOutcome> {
  const { command, cwd, env, timeoutMs, maxOutputBytes, signal } = request;
  if (signal.aborted) return { stdout: '', stderr: '', exitCode: null, signal: null, stoppedBy: 'abort' };
  const child = spawnShell(command, cwd, env);
  const stdout = createOutputCapture(maxOutputBytes);
  const stderr = createOutputCapture(maxOutputBytes);
  child.stdout?.on('data', (chunk: Buffer) => stdout.append(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk));
  const streamsClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  let stoppedBy: ShellCommandOutcome['stoppedBy'];
  let stopping: Promise<void> | undefined;
  const stop = (reason: 'timeout' | 'abort') => {
    if (stoppedBy !== undefined) return;
    stoppedBy = reason;
    stopping = stopProcessTree(child);
  };
  // Timers overflow past 2^31 - 1 ms and fire at once.
  const timer = setTimeout(() => stop('timeout'), Math.min(timeoutMs, 2 ** 31 - 1));
  const onAbort = () => stop('abort');
  signal.addEventListener('abort', onAbort, { once: true });
  let exit: Awaited<ReturnType<typeof exitOf>> | Error;
  try {
    exit = await exitOf(child);
  } catch (error) {
    exit = error as Error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  // The shell is gone (or failed); what it left running in the background goes too.
  await (stopping ?? stopProcessTree(child));
  if (exit instanceof Error) throw exit;
  // The pipes close once everyone holding them is gone; one that escaped the group is not waited for.
  let giveUp: NodeJS.Timeout | undefined;
  await Promise.race([
    streamsClosed,
    new Promise((resolve) => (giveUp = setTimeout(resolve, KILL_GRACE_MS))),
  ]);
  clearTimeout(giveUp);
  child.stdout?.destroy();
  child.stderr?.destroy();
  return {
    stdout: stdout.text(),
    stderr: stderr.text(),
    exitCode: exit.code,
    signal: exit.signal,
    ...definedFields({ stoppedBy }),
  };
}
