import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const IS_WINDOWS = process.platform === 'win32';
// How long a process group gets to exit after SIGTERM before SIGKILL, and after SIGKILL.
export const KILL_GRACE_MS = 2000;
const POLL_INTERVAL_MS = 25;

/**
 * The process groups started by `spawnShell` that may still be alive. Stopping one takes a grace
 * period, which a caller that has settled an aborted call need not wait for: when this process exits
 * first, whatever is left is killed then, synchronously, instead of outliving it.
 */
const liveGroups = new Set<number>();
let exitHandlerInstalled = false;

function killLiveGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

function registerGroup(pgid: number): void {
  liveGroups.add(pgid);
  // One handler for the module, however many commands run.
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on('exit', killLiveGroups);
}

/** The process groups of commands not known to be gone yet (for tests). */
export function liveProcessGroups(): readonly number[] {
  return [...liveGroups];
}

/**
 * Starts `command` in the platform shell, its stdin closed. On POSIX it leads a process group of its
 * own (`detached`), so the command and everything it starts can be stopped together; the group is
 * killed when this process exits, unless `stopProcessTree` has seen it gone.
 */
export function spawnShell(command: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  if (IS_WINDOWS) {
    // What Node's `shell: true` does: the whole line quoted once, handed to cmd.exe verbatim.
    return spawn(process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `"${command}"`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: true,
    });
  }
  const child = spawn('/bin/sh', ['-c', command], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid !== undefined) registerGroup(child.pid);
  return child;
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    // ESRCH: nobody is left in the group.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Linux: whether the group has a member that is not a zombie. A killed orphan stays a zombie until
 * PID 1 reaps it, which in a container without an init (node as PID 1) is never; it is dead all the
 * same. Elsewhere, any member counts.
 */
async function hasLiveMember(pgid: number): Promise<boolean> {
  if (process.platform !== 'linux') return true;
  const entries = await readdir('/proc').catch(() => undefined);
  if (entries === undefined) return true;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') return true;
  }
  return false;
}

async function groupExited(pid: number, withinMs: number): Promise<boolean> {
  const gone = async () => !signalGroup(pid, 0) || !(await hasLiveMember(pid));
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(POLL_INTERVAL_MS)) {
    if (await gone()) return true;
  }
  return gone();
}

/**
 * Stops a shell started by `spawnShell` and everything it started: SIGTERM to its process group,
 * SIGKILL to whatever is left after a grace period; resolves once the group is gone. On Windows,
 * `taskkill /T /F` on the process tree.
 */
export async function stopProcessTree(child: ChildProcess): Promise<void> {
  const { pid } = child;
  if (pid === undefined) return;
  if (IS_WINDOWS) {
    // taskkill finds the tree through the shell: once the shell has exited, there is no tree to find.
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
        stdio: 'ignore',
        windowsHide: true,
      });
      killer.once('close', () => resolve());
      killer.once('error', () => resolve());
    });
    return;
  }
  try {
    if (!signalGroup(pid, 'SIGTERM') || (await groupExited(pid, KILL_GRACE_MS))) return;
    signalGroup(pid, 'SIGKILL');
    await groupExited(pid, KILL_GRACE_MS);
  } finally {
    // Gone, or past saving after SIGKILL: either way its number is not kept, as it may be reused.
    liveGroups.delete(pid);
  }
}
