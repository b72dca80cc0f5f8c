import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliFailure } from '../cli-error.js';
import { type ModelSettings, PROVIDER_NAMES } from '../model/resolve-model.js';
import type { StoreKind, StoreSettings } from '../store/open-store.js';
import { type CliConfig, configPath, loadConfigFile } from './config-file.js';

/** The options every command shares, as commander parsed them (all optional). */
export interface GlobalFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  dataDir?: string;
  store?: string;
  databaseUrl?: string;
  config?: string;
  workspace?: string;
  approval?: string;
  yes?: boolean;
  color?: boolean;
  verbose?: boolean;
}

export type ApprovalMode = 'ask' | 'always' | 'never';

/** Everything a command needs to know, after flags > environment > config file > defaults. */
export interface CliSettings extends StoreSettings {
  model: ModelSettings;
  /** Absent: the workspace follows the model (the sample workspace for the demo, else the cwd). */
  workspace?: string;
  /** Absent: ask on a terminal, refuse otherwise (the demo decides for itself). */
  approval?: ApprovalMode;
  maxTurns?: number;
  systemPrompt?: string;
  color?: boolean;
  verbose: boolean;
  configFile?: string;
}

const STORES: readonly StoreKind[] = ['fs', 'sqlite', 'postgres'];
const APPROVALS: readonly ApprovalMode[] = ['ask', 'always', 'never'];

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw cliFailure('INVALID_ARGUMENT', `${name} must be one of ${allowed.join(', ')}, got "${value}"`);
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** `$XDG_DATA_HOME/cairn`, else `~/.local/share/cairn`. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  return join(xdg ?? join(env.HOME ?? homedir(), '.local', 'share'), 'cairn');
}

/** Flags win over the environment, which wins over `cairn.config.json`. */
export function resolveCliSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, cwd: string): CliSettings {
  const file = configPath(flags.config, env, cwd);
  const config: CliConfig = loadConfigFile(file);
  const pick = (flag: string | undefined, envName: string, fromConfig: string | undefined) =>
    nonEmpty(flag) ?? nonEmpty(env[envName]) ?? fromConfig;

  const provider = oneOf(
    '--provider',
    pick(flags.provider, 'CAIRN_PROVIDER', config.provider),
    PROVIDER_NAMES,
  );
  const model = pick(flags.model, 'CAIRN_MODEL', config.model);
  // OPENAI_BASE_URL is left to the model resolution (after any API key); it still beats the config file.
  const baseURL =
    nonEmpty(flags.baseUrl) ?? (nonEmpty(env.OPENAI_BASE_URL) === undefined ? config.baseURL : undefined);
  const apiKey = nonEmpty(flags.apiKey);
  const store = oneOf('--store', pick(flags.store, 'CAIRN_STORE', config.store), STORES) ?? 'fs';
  const dataDir = pick(flags.dataDir, 'CAIRN_DATA_DIR', config.dataDir);
  const databaseUrl = pick(flags.databaseUrl, 'DATABASE_URL', config.databaseUrl);
  const workspace = pick(flags.workspace, 'CAIRN_WORKSPACE', config.workspace);
  const approval = flags.yes
    ? 'always'
    : oneOf('--approval', pick(flags.approval, 'CAIRN_APPROVAL', config.approval), APPROVALS);
  // Paths in the config file are relative to the file, the others to where cairn runs.
  const base = (fromConfig: string | undefined, value: string | undefined) =>
    value !== undefined && value === fromConfig && file !== undefined ? resolve(file, '..') : cwd;

  return {
    model: {
      ...(provider === undefined ? {} : { provider }),
      ...(model === undefined ? {} : { model }),
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(baseURL !== undefined && nonEmpty(flags.baseUrl) === undefined
        ? { baseURLFrom: 'cairn.config.json' }
        : {}),
      ...(apiKey === undefined ? {} : { apiKey }),
    },
    store,
    dataDir: dataDir === undefined ? defaultDataDir(env) : resolve(base(config.dataDir, dataDir), dataDir),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    ...(workspace === undefined ? {} : { workspace: resolve(base(config.workspace, workspace), workspace) }),
    ...(approval === undefined ? {} : { approval }),
    ...(config.maxTurns === undefined ? {} : { maxTurns: config.maxTurns }),
    ...(config.systemPrompt === undefined ? {} : { systemPrompt: config.systemPrompt }),
    // commander's `--no-color` leaves `color: true` when absent: only the `false` means something.
    ...(flags.color === false ? { color: false } : {}),
    verbose: flags.verbose === true,
    ...(file === undefined ? {} : { configFile: file }),
  };
}
