// Child processes for the check scripts: output collected, a time limit, and an environment
// without the npm_* / pnpm_* variables a package manager sets for its scripts (npm_config_local_prefix
// would send `npm install` in a temp project back into the repository).
import { runInProcessGroup } from './run-process-group.mjs';

export { killChildren } from './run-process-group.mjs';

export const PNPM = ['-y', 'pnpm@10.34.9'];

/** npm settings from the environment that describe the machine rather than the script's caller. */
const KEPT_NPM_SETTINGS = new Set([
  'npm_config_registry',
  'npm_config_cafile',
  'npm_config_ca',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
  'npm_config_no_proxy',
  'npm_config_strict_ssl',
  'npm_config_cache',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_nodedir',
]);

/** process.env minus package-manager script variables, plus `extra`. */
export function childEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm|pnpm)_/i.test(key) && !KEPT_NPM_SETTINGS.has(key.toLowerCase())) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

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
