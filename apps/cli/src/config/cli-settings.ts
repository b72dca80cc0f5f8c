import { dirname, resolve } from 'node:path';
import {
  defaultDataDir,
  type ModelSettings,
  PROVIDER_NAMES,
  STORE_KINDS,
  type StoreSettings,
} from '@cairn/connect';
import { definedFields } from '@cairn/core';
import { cliFailure } from '../cli-error.js';
import { type CliConfig, configPath, loadConfigFile } from './config-file.js';
import { mcpConfigFiles } from './mcp-config-files.js';

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
  plain?: boolean;
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  otel?: boolean;
}

export type ApprovalMode = 'ask' | 'always' | 'never';

/** Everything a command needs to know, after flags > environment > config file > defaults. */
export interface CliSettings extends StoreSettings {
  model: ModelSettings;
  /** Absent: the workspace follows the model (the sample workspace for the demo, else the cwd). */
  workspace?: string;
  /** Absent: ask on a terminal, else leave the call waiting for `cairn approvals` (the demo decides for itself). */
  approval?: ApprovalMode;
  maxTurns?: number;
  systemPrompt?: string;
  color?: boolean;
  verbose: boolean;
  /** The model's answers exactly as it wrote them: no Markdown rendering (`--plain`, `CAIRN_PLAIN=1`). */
  plain: boolean;
  /** Export traces and metrics over OTLP/HTTP (`--otel`, `CAIRN_OTEL=1`; see the README's OpenTelemetry). */
  otel: boolean;
  configFile?: string;
  /** MCP configuration files (`./.mcp.json`, `--mcp-config`), in the order they are merged. */
  mcpConfigFiles: string[];
}

const APPROVALS: readonly ApprovalMode[] = ['ask', 'always', 'never'];
// What an on/off variable may say.
const SWITCH = ['1', 'true', '0', 'false'] as const;

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

/** Flags win over the environment, which wins over `cairn.config.json`. */
export function resolveCliSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, cwd: string): CliSettings {
  const file = configPath(flags.config, env, cwd);
  const config: CliConfig = loadConfigFile(file);
  // Each value with where it came from, so an error names the flag, the variable or the file field.
  const pick = (
    flag: string | undefined,
    flagName: string,
    envName: string,
    fromConfig: string | undefined,
  ) => {
    if (nonEmpty(flag) !== undefined) return { value: flag as string, from: flagName };
    if (nonEmpty(env[envName]) !== undefined) return { value: env[envName] as string, from: envName };
    if (fromConfig !== undefined) return { value: fromConfig, from: `${file} (${flagName.slice(2)})` };
    return undefined;
  };
  const choice = <T extends string>(picked: ReturnType<typeof pick>, allowed: readonly T[]) =>
    picked === undefined ? undefined : oneOf(picked.from, picked.value, allowed);
  // Paths from the config file are relative to the file; flags and variables to where cairn runs.
  const path = (picked: ReturnType<typeof pick>) =>
    picked === undefined
      ? undefined
      : resolve(file !== undefined && picked.from.startsWith(file) ? dirname(file) : cwd, picked.value);

  const providerPick = pick(flags.provider, '--provider', 'CAIRN_PROVIDER', config.provider);
  const provider = choice(providerPick, PROVIDER_NAMES);
  const model = pick(flags.model, '--model', 'CAIRN_MODEL', config.model)?.value;
  // OPENAI_BASE_URL is left to the model resolution (after any API key); it still beats the config file.
  const baseURL =
    nonEmpty(flags.baseUrl) ?? (nonEmpty(env.OPENAI_BASE_URL) === undefined ? config.baseURL : undefined);
  const apiKey = nonEmpty(flags.apiKey);
  const store = choice(pick(flags.store, '--store', 'CAIRN_STORE', config.store), STORE_KINDS) ?? 'fs';
  const dataDir = path(pick(flags.dataDir, '--data-dir', 'CAIRN_DATA_DIR', config.dataDir));
  const databaseUrl = pick(flags.databaseUrl, '--database-url', 'DATABASE_URL', config.databaseUrl)?.value;
  const workspace = path(pick(flags.workspace, '--workspace', 'CAIRN_WORKSPACE', config.workspace));
  const approval = flags.yes
    ? 'always'
    : choice(pick(flags.approval, '--approval', 'CAIRN_APPROVAL', config.approval), APPROVALS);
  const plain =
    flags.plain === true || ['1', 'true'].includes(oneOf('CAIRN_PLAIN', env.CAIRN_PLAIN, SWITCH) ?? '');

  return {
    model: {
      // Where it came from names the model's source at start-up ("from CAIRN_PROVIDER").
      ...(provider === undefined || providerPick === undefined
        ? {}
        : { provider, providerFrom: providerPick.from }),
      ...definedFields({ model, baseURL }),
      ...(baseURL !== undefined && nonEmpty(flags.baseUrl) === undefined
        ? { baseURLFrom: 'cairn.config.json' }
        : {}),
      ...definedFields({ apiKey }),
    },
    store,
    dataDir: dataDir ?? defaultDataDir(env),
    ...definedFields({
      databaseUrl,
      workspace,
      approval,
      maxTurns: config.maxTurns,
      systemPrompt: config.systemPrompt,
    }),
    // commander's `--no-color` leaves `color: true` when absent: only the `false` means something.
    ...(flags.color === false ? { color: false } : {}),
    verbose: flags.verbose === true,
    plain,
    mcpConfigFiles: mcpConfigFiles(flags, cwd),
    otel: flags.otel === true || ['1', 'true'].includes(oneOf('CAIRN_OTEL', env.CAIRN_OTEL, SWITCH) ?? ''),
    ...definedFields({ configFile: file }),
  };
}
