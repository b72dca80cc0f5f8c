import { isAbsolute, resolve } from 'node:path';
import {
  AGENT_PERMISSION_MODES,
  type AgentCliDefinition,
  type AgentPermissionMode,
  claudeCodeCli,
  codexCli,
  geminiCli,
  qwenCodeCli,
} from '@cairn/agent-executor';
import { CairnError } from '@cairn/core';

/** The agent CLIs an agent session can run, by their command name. */
export const AGENT_SESSION_AGENTS = ['claude', 'gemini', 'codex', 'qwen'] as const;
export type AgentSessionAgent = (typeof AGENT_SESSION_AGENTS)[number];

/**
 * Agent sessions run Claude Code, Gemini CLI, Codex CLI or Qwen Code on this machine, which run code: they are off unless
 * these are given.
 */
export interface AgentSessionsOptions {
  /** The directory sessions run in (absolute); a request's `cwd` is a directory inside it. */
  workspaceRoot: string;
  /** The agents requests may name; default all. */
  agents?: readonly AgentSessionAgent[];
  /** Their executables (a name on `PATH` or a path); default `claude`, `gemini`, `codex` and `qwen`. */
  commands?: { claude?: string; gemini?: string; codex?: string; qwen?: string };
  /**
   * Variables of the server's environment the agent CLI gets besides the basic ones (PATH, HOME,
   * USER, SHELL, LANG, LC_*, TERM, TMPDIR, TZ), e.g. `ANTHROPIC_API_KEY`. Nothing else reaches it:
   * not the API token, database URLs or the server's model keys.
   */
  passEnv?: readonly string[];
  /**
   * The permission modes a request may ask for (`permissions.mode`); default read-only and edit.
   * Requests naming `allowedTools` need `full` here (a tool rule can allow any command).
   */
  permissionModes?: readonly AgentPermissionMode[];
}

/** The options checked once, with the defaults applied. */
export interface AgentSessionSettings {
  /** Absolute (not yet resolved through symbolic links: the directory may be created later). */
  workspaceRoot: string;
  agents: ReadonlySet<AgentSessionAgent>;
  permissionModes: ReadonlySet<AgentPermissionMode>;
  command(agent: AgentSessionAgent): string;
  definition(agent: AgentSessionAgent): AgentCliDefinition;
  /** The environment to start an agent with, over `process.env`: every variable not allowed is removed. */
  childEnv(): Record<string, string | undefined>;
}

const BASIC_ENV = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TERM|TMPDIR|TZ)$/;

const DEFINITIONS: Readonly<Record<AgentSessionAgent, AgentCliDefinition>> = {
  claude: claudeCodeCli,
  gemini: geminiCli,
  codex: codexCli,
  qwen: qwenCodeCli,
};

const DEFAULT_PERMISSION_MODES: readonly AgentPermissionMode[] = ['read-only', 'edit'];

const invalid = (message: string) => new CairnError('INVALID_ARGUMENT', message);

/** Checks `options` when the app is made (`INVALID_ARGUMENT` naming the bad field). */
export function agentSessionSettings(options: AgentSessionsOptions): AgentSessionSettings {
  const {
    workspaceRoot,
    agents = AGENT_SESSION_AGENTS,
    commands = {},
    passEnv = [],
    permissionModes = DEFAULT_PERMISSION_MODES,
  } = options;
  if (typeof workspaceRoot !== 'string' || !isAbsolute(workspaceRoot)) {
    throw invalid('agentSessions.workspaceRoot must be an absolute path');
  }
  if (!Array.isArray(agents) || agents.some((agent) => !AGENT_SESSION_AGENTS.includes(agent))) {
    throw invalid(`agentSessions.agents must list agents among ${AGENT_SESSION_AGENTS.join(', ')}`);
  }
  for (const agent of AGENT_SESSION_AGENTS) {
    const command = commands[agent];
    if (command !== undefined && (typeof command !== 'string' || command === '')) {
      throw invalid(`agentSessions.commands.${agent} must be a non-empty string`);
    }
  }
  if (
    !Array.isArray(permissionModes) ||
    permissionModes.length === 0 ||
    permissionModes.some((mode) => !AGENT_PERMISSION_MODES.includes(mode))
  ) {
    throw invalid(`agentSessions.permissionModes must list modes among ${AGENT_PERMISSION_MODES.join(', ')}`);
  }
  const passed = new Set(passEnv);
  return {
    workspaceRoot: resolve(workspaceRoot),
    agents: new Set(agents),
    permissionModes: new Set(permissionModes),
    command: (agent) => commands[agent] ?? DEFINITIONS[agent].defaultCommand,
    definition: (agent) => DEFINITIONS[agent],
    childEnv: () =>
      Object.fromEntries(
        Object.keys(process.env)
          .filter((name) => !BASIC_ENV.test(name) && !passed.has(name))
          .map((name) => [name, undefined]),
      ),
  };
}
