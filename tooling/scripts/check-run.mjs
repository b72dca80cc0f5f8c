// Child processes for the check scripts: output collected, a time limit, and the environment of a
// user's shell (@cairn/vitest-config/user-shell-env).
import { userShellEnv } from '../vitest-config/user-shell-env.js';
import { runInProcessGroup } from './run-process-group.mjs';

export { killChildren } from './run-process-group.mjs';

export const PNPM = ['-y', 'pnpm@10.34.9'];

/** process.env minus package-manager script variables, plus `extra`. */
export const childEnv = userShellEnv;

/** Runs `command args` in `cwd` in its own process group, with `childEnv()` unless told otherwise. */
export function run(command, args, { cwd, env = childEnv(), timeoutMs = 300_000, input } = {}) {
  return runInProcessGroup(command, args, { cwd, env, timeoutMs, input });
}

/** The last meaningful lines of a failed command's output (npm's "npm error" lines when there are any). */
export function tail(text, lines = 6) {
  const all = text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line && !/Unknown user config "nodedir"/.test(line));
  const errors = all.filter((line) => /^npm (error|ERR!)/.test(line));
  return (errors.length > 0 ? errors : all).slice(-lines).join(' | ');
}
