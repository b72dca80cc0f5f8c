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
   * Largest file `edit_file` edits; also the largest old content `write_file` keeps (as
   * `originalFile`) so a display can diff an overwrite. Default 10 MiB.
   */
  maxEditFileBytes?: number;
  /** `run_command` stops a command (and everything it started) after this long. Default 120 s. */
  commandTimeoutMs?: number;
  /** Bytes kept of a command's stdout, and of its stderr: the start and the end. Default 30 000. */
  maxCommandOutputBytes?: number;
  /** Variables added to (or replacing) the environment commands inherit. */
  commandEnv?: Record<string, string>;
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
  maxEditFileBytes: 10 * 1024 * 1024,
  commandTimeoutMs: 120_000,
  maxCommandOutputBytes: 30_000,
  runCommandNeedsApproval: true,
};

/** The options with defaults filled in; a limit that is not a positive integer fails at once. */
export function workspaceToolLimits(options: WorkspaceToolsOptions): WorkspaceToolLimits {
  const limits = { ...WORKSPACE_TOOL_DEFAULTS };
  for (const key of Object.keys(limits) as (keyof WorkspaceToolLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === 'runCommandNeedsApproval') {
      limits.runCommandNeedsApproval = value === true;
    } else if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new CairnError('INVALID_ARGUMENT', `${key} must be a positive integer, got ${String(value)}`);
    } else {
      limits[key] = value;
    }
  }
  return limits;
}
