import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defaultDataDir } from '@cairn/connect';
import { ATTACHMENT_MAX_BYTES, CairnError } from '@cairn/core';
import { isLoopbackHost } from './loopback-host.js';
import { type ServerConfig, ServerConfigSchema } from './server-config.js';

/** The command line as commander parsed it (all optional). */
export interface ServerFlags {
  host?: string;
  port?: string;
  insecureLocal?: boolean;
  store?: string;
  dataDir?: string;
  databaseUrl?: string;
  provider?: string;
  model?: string;
  models?: string[];
  baseUrl?: string;
  workspace?: string;
  allowCommands?: boolean;
  otel?: boolean;
  gracePeriod?: string;
  approvalTtl?: string;
  runLeaseTtl?: string;
  maxConcurrentTurns?: string;
  bodyLimit?: string;
  attachmentLimit?: string;
  corsOrigin?: string[];
  rateLimit?: string;
  agentSessions?: boolean;
  agentEnv?: string[];
  workflows?: string[];
  mcpConfig?: string[];
  lockConnections?: string;
  workers?: string;
  logLevel?: string;
  /** commander's `--no-web`: false when given. */
  web?: boolean;
}

export const DEFAULT_PORT = 8787;

// How the user sets each field, so an error names what to change.
const SOURCES: Record<keyof ServerConfig, string> = {
  host: '--host / CAIRN_HOST',
  port: '--port / PORT',
  apiToken: 'CAIRN_API_TOKEN',
  insecureLocal: '--insecure-local',
  store: '--store / CAIRN_STORE',
  dataDir: '--data-dir / CAIRN_DATA_DIR',
  databaseUrl: '--database-url / DATABASE_URL',
  model: '--provider / --model / --base-url',
  models: '--models / CAIRN_MODELS',
  workspace: '--workspace / CAIRN_WORKSPACE',
  allowCommands: '--allow-commands / CAIRN_ALLOW_COMMANDS',
  otel: '--otel / CAIRN_OTEL',
  gracePeriodMs: '--grace-period / CAIRN_GRACE_PERIOD',
  approvalTtlMs: '--approval-ttl / CAIRN_APPROVAL_TTL',
  runLeaseTtlMs: '--run-lease-ttl / CAIRN_RUN_LEASE_TTL',
  maxConcurrentTurns: '--max-concurrent-turns / CAIRN_MAX_CONCURRENT_TURNS',
  bodyLimitBytes: '--body-limit / CAIRN_BODY_LIMIT',
  attachmentLimitBytes: '--attachment-limit / CAIRN_ATTACHMENT_LIMIT',
  corsOrigins: '--cors-origin / CAIRN_CORS_ORIGINS',
  rateLimit: '--rate-limit / CAIRN_RATE_LIMIT',
  agentSessions: '--agent-sessions / CAIRN_AGENT_SESSIONS',
  agentEnv: '--agent-env / CAIRN_AGENT_ENV',
  workflowFiles: '--workflows / CAIRN_WORKFLOWS',
  mcpConfigFiles: '--mcp-config / CAIRN_MCP_CONFIG',
  lockConnections: '--lock-connections / CAIRN_LOCK_CONNECTIONS',
  workers: '--workers / CAIRN_WORKERS',
  logLevel: '--log-level / LOG_LEVEL',
  webRoot: '--no-web',
};

const invalid = (problem: string, fix?: string) =>
  new CairnError('INVALID_ARGUMENT', problem, fix === undefined ? {} : { details: { fix } });

const nonEmpty = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

const flagOrEnv = (flag: string | undefined, value: string | undefined) => nonEmpty(flag) ?? nonEmpty(value);

const envBoolean = (value: string | undefined) =>
  value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());

/** `off`, or `RPS` or `RPS:BURST` (burst defaults to twice the rate). */
function parseRateLimit(text: string | undefined): ServerConfig['rateLimit'] | string {
  if (text === undefined) return undefined;
  if (text.toLowerCase() === 'off') return false;
  const match = /^(\d+(?:\.\d+)?)(?::(\d+))?$/.exec(text);
  if (match === null) return text;
  const requestsPerSecond = Number(match[1]);
  return {
    requestsPerSecond,
    burst: match[2] === undefined ? Math.ceil(requestsPerSecond * 2) : Number(match[2]),
  };
}

/** Seconds as given by the user, in ms; garbage is passed through for the schema to reject. */
const secondsToMs = (text: string | undefined) =>
  text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Math.round(Number(text) * 1000) : text;

/**
 * The server's configuration: flags win over the environment, which wins over the defaults. Refuses
 * to expose the API without a token: no `CAIRN_API_TOKEN` is only allowed with `--insecure-local`
 * on a loopback address.
 */
export function readServerConfig(
  flags: ServerFlags,
  env: NodeJS.ProcessEnv,
  options: { cwd: string; webRoot?: string },
): ServerConfig {
  const path = (text: string | undefined) => (text === undefined ? undefined : resolve(options.cwd, text));
  const list = (flag: string[] | undefined, text: string | undefined) =>
    flag ??
    (nonEmpty(text) === undefined
      ? []
      : String(text)
          .split(',')
          .map((item) => item.trim()));
  const maxConcurrentTurns = flagOrEnv(flags.maxConcurrentTurns, env.CAIRN_MAX_CONCURRENT_TURNS) ?? 64;
  const raw = {
    host: flagOrEnv(flags.host, env.CAIRN_HOST) ?? '127.0.0.1',
    port: flagOrEnv(flags.port, env.PORT) ?? DEFAULT_PORT,
    apiToken:
      env.CAIRN_API_TOKEN === undefined || env.CAIRN_API_TOKEN === '' ? undefined : env.CAIRN_API_TOKEN,
    insecureLocal: flags.insecureLocal === true,
    store: flagOrEnv(flags.store, env.CAIRN_STORE) ?? 'fs',
    dataDir: path(flagOrEnv(flags.dataDir, env.CAIRN_DATA_DIR)) ?? defaultDataDir(env),
    databaseUrl: flagOrEnv(flags.databaseUrl, env.DATABASE_URL),
    model: {
      provider: flagOrEnv(flags.provider, env.CAIRN_PROVIDER),
      model: flagOrEnv(flags.model, env.CAIRN_MODEL),
      baseURL: nonEmpty(flags.baseUrl),
    },
    models: list(flags.models, env.CAIRN_MODELS),
    workspace: path(flagOrEnv(flags.workspace, env.CAIRN_WORKSPACE)),
    allowCommands: flags.allowCommands === true || envBoolean(env.CAIRN_ALLOW_COMMANDS),
    otel: flags.otel === true || envBoolean(env.CAIRN_OTEL),
    gracePeriodMs: secondsToMs(flagOrEnv(flags.gracePeriod, env.CAIRN_GRACE_PERIOD)) ?? 30_000,
    // A day: long enough for a person to come back to it, short enough not to pile up forever.
    approvalTtlMs: secondsToMs(flagOrEnv(flags.approvalTtl, env.CAIRN_APPROVAL_TTL)) ?? 86_400_000,
    runLeaseTtlMs: secondsToMs(flagOrEnv(flags.runLeaseTtl, env.CAIRN_RUN_LEASE_TTL)) ?? 30_000,
    maxConcurrentTurns,
    bodyLimitBytes: flagOrEnv(flags.bodyLimit, env.CAIRN_BODY_LIMIT) ?? 1024 * 1024,
    attachmentLimitBytes:
      flagOrEnv(flags.attachmentLimit, env.CAIRN_ATTACHMENT_LIMIT) ?? ATTACHMENT_MAX_BYTES,
    corsOrigins: list(flags.corsOrigin, env.CAIRN_CORS_ORIGINS),
    rateLimit: parseRateLimit(flagOrEnv(flags.rateLimit, env.CAIRN_RATE_LIMIT)),
    agentSessions: flags.agentSessions === true || envBoolean(env.CAIRN_AGENT_SESSIONS),
    agentEnv: list(flags.agentEnv, env.CAIRN_AGENT_ENV),
    workflowFiles: list(flags.workflows, env.CAIRN_WORKFLOWS).map((file) => resolve(options.cwd, file)),
    mcpConfigFiles: list(flags.mcpConfig, env.CAIRN_MCP_CONFIG).map((file) => resolve(options.cwd, file)),
    // With the store's 10 and 4 more, two instances fit PostgreSQL's default max_connections (100).
    lockConnections: flagOrEnv(flags.lockConnections, env.CAIRN_LOCK_CONNECTIONS) ?? 32,
    // Every core: each worker is a process of its own serving the one port.
    workers: flagOrEnv(flags.workers, env.CAIRN_WORKERS) ?? availableParallelism(),
    logLevel: flagOrEnv(flags.logLevel, env.LOG_LEVEL) ?? 'info',
    webRoot: flags.web === false ? undefined : options.webRoot,
  };
  const parsed = ServerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] as keyof ServerConfig | undefined;
    const source = field === undefined ? 'the configuration' : SOURCES[field];
    // Values that may carry a secret (the token, URLs with credentials) are never echoed.
    const secretive =
      field === undefined || field === 'apiToken' || field === 'model' || field === 'databaseUrl';
    const value = secretive ? '' : ` (got ${JSON.stringify(raw[field])})`;
    throw invalid(`${source}: ${issue?.message ?? 'invalid'}${value}`);
  }
  checkExposure(parsed.data);
  checkCombinations(parsed.data);
  return parsed.data;
}

function checkExposure(config: ServerConfig): void {
  if (config.apiToken !== undefined) return;
  if (!config.insecureLocal) {
    throw invalid(
      'CAIRN_API_TOKEN is not set, and the API would be open to anyone who can reach it',
      'set CAIRN_API_TOKEN to a secret of at least 16 characters (e.g. `openssl rand -hex 32`), or pass --insecure-local to run without one on 127.0.0.1',
    );
  }
  if (!isLoopbackHost(config.host)) {
    throw invalid(
      `--insecure-local only runs on a loopback address, not on ${config.host}`,
      'set CAIRN_API_TOKEN, or bind to 127.0.0.1 / ::1',
    );
  }
}

function checkCombinations(config: ServerConfig): void {
  if (config.store === 'postgres' && config.databaseUrl === undefined) {
    throw invalid(
      '--store postgres needs a database',
      'set DATABASE_URL (or --database-url) to a postgres:// URL',
    );
  }
  if (config.agentSessions && config.workspace === undefined) {
    throw invalid(
      '--agent-sessions needs a workspace',
      'pass --workspace DIR: agent CLIs run only inside it',
    );
  }
  if (config.allowCommands && config.workspace === undefined) {
    throw invalid('--allow-commands needs a workspace', 'pass --workspace DIR: commands run only inside it');
  }
}
