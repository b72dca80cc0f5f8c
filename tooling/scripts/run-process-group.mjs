// A child process in a process group of its own, so that on a time limit or a signal everything it
// started (servers, workers, `npm install`'s scripts) is killed with it, not only the first process.
import { spawn } from 'node:child_process';

/** Process groups of the children still running, for killChildren. */
const live = new Set();

/** Sends `signal` to the process group of every child still running (for a signal handler). */
export function killChildren(signal = 'SIGKILL') {
  for (const pid of live) {
    try {
      process.kill(-pid, signal);
    } catch {}
  }
}

/**
 * Runs `command args` (through a shell with `shell: true`) in `cwd`; resolves, never rejects, with
 * { code, signal, stdout, stderr, timedOut }. `echo` also writes the output through as it comes. On
 * timeout the child's whole process group gets SIGKILL.
 */
export function runInProcessGroup(
  command,
  args,
  { cwd, env, timeoutMs, input, shell = false, echo = false },
) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, shell, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined) live.add(child.pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    const settle = (result) => {
      clearTimeout(timer);
      live.delete(child.pid);
      resolve({ stdout, stderr, timedOut, ...result });
    };
    child.on('error', (error) => settle({ code: null, signal: null, stderr: `${stderr}${error.message}\n` }));
    child.on('close', (code, signal) => settle({ code, signal }));
    child.stdin.on('error', () => {}); // a child that exits without reading its input
    child.stdin.end(input);
  });
}
