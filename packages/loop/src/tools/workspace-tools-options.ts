import { CairnError } from '@cairn/core';

/** Options of the workspace tools; every limit has a default. */
export interface WorkspaceToolsOptions {
  /** The workspace the tools may touch. When absent, each call's `context.projectRoot`. */
  root?: string;
  /** Lines `read_file` returns at most (and when the call gives no `limit`). Default 2000. */
  maxReadLines?: number;
  /** Bytes of numbered text `read_file` returns at most. Default 256 KiB. */
  maxReadBytes?: number;
  /** Entries `list_dir` shows. Default 1000. */
  maxListEntries?: number;
  /** Paths `glob` returns. Default 1000. */
  maxGlobResults?: number;
  /** Matching lines `grep` returns. Default 500. */
  maxGrepMatches?: number;
  /** Files larger than this `grep` skips. Default 1 MiB. */
  maxGrepFileBytes?: number;
  /**
   * `grep` stops a search that takes longer than this (`TOOL_TIMEOUT`): the regular expression runs in
   * a worker thread, so one that backtracks catastrophically (`^(a+)+$`) cannot block the process.
   * Default 30 s.
   */
  grepTimeoutMs?: number;
  /**
   * Largest file `edit_file` edits; also the largest old content `write_file` keeps (as
   * `originalFile`) so a display can diff an overwrite. Default 10 MiB.
   */
  maxEditFileBytes?: number;
  /** `run_command` stops a command (and everything it started) after this long. Default 120 s. */
  commandTimeoutMs?: number;
  /** Bytes kept of a command's stdout, and of its stderr: the start and the end. Default 30 000. */
  maxCommandOutputBytes?: number;
  /**
   * Variables added to (or replacing) the environment commands inherit. Always passed, secrets or
   * not: this is how to hand a command a credential it needs.
   */
  commandEnv?: Record<string, string>;
  /**
   * `run_command` passes this process's secrets on to the commands the model writes. By default
   * (false) commands inherit the environment without them: variables named like a secret (a name
   * part `API_KEY`/`APIKEY`, `TOKEN`, `SECRET`, `PASSWORD`, `PASSWD`, `CREDENTIAL(S)` or
   * `PRIVATE_KEY`, any case, e.g. `OPENAI_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`) and
   * `DATABASE_URL`, `CAIRN_API_TOKEN`, `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`,
   * `GOOGLE_API_KEY`, `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, `NPM_TOKEN`. `commandEnv` entries are
   * passed either way. Default false.
   */
  inheritSecretEnv?: boolean;
  /** `run_command` asks for approval before running. Default true. */
  runCommandNeedsApproval?: boolean;
}

export type WorkspaceToolLimits = Required<Omit<WorkspaceToolsOptions, 'root' | 'commandEnv'>>;

export const WORKSPACE_TOOL_DEFAULTS: Readonly<WorkspaceToolLimits> = {
  maxReadLines: 2000,
  maxReadBytes: 256 * 1024,
  maxListEntries: 1000,
  maxGlobResults: 1000,
  maxGrepMatches: 500,
  maxGrepFileBytes: 1024 * 1024,
  grepTimeoutMs: 30_000,
  maxEditFileBytes: 10 * 1024 * 1024,
  commandTimeoutMs: 120_000,
  maxCommandOutputBytes: 30_000,
  runCommandNeedsApproval: true,
  inheritSecretEnv: false,
};

/** The options with defaults filled in; a limit that is not a positive integer fails at once. */
export function workspaceToolLimits(options: WorkspaceToolsOptions): WorkspaceToolLimits {
  const limits = { ...WORKSPACE_TOOL_DEFAULTS };
  for (const key of Object.keys(limits) as (keyof WorkspaceToolLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === 'runCommandNeedsApproval' || key === 'inheritSecretEnv') {
      limits[key] = value === true;
    } else if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new CairnError('INVALID_ARGUMENT', `${key} must be a positive integer, got ${String(value)}`);
    } else {
      limits[key] = value;
    }
  }
  return limits;
}
