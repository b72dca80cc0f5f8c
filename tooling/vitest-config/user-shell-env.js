// The environment of a user's shell, for tests that run npm (or a packed package) in a temporary
// project the way a user would: without the npm_* / pnpm_* variables a package manager sets for the
// script running the tests (npm_config_local_prefix would send `npm install` back into this
// repository) and without pnpm's NODE_PATH (which would let the project resolve the workspace's
// packages). npm settings that describe the machine (registry, CA, proxy, cache, its npmrc files)
// are kept: without them npm cannot reach the registry on a machine that needs them.

const MACHINE_NPM_SETTINGS = new Set([
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

/** process.env as a user's shell has it, plus `extra`. */
export function userShellEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_PATH') continue;
    if (/^(npm|pnpm)_/i.test(key) && !MACHINE_NPM_SETTINGS.has(key.toLowerCase())) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
