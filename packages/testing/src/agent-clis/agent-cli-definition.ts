import type { AgentCliToolDialect, ScenarioTurnContext } from './agent-cli-scenarios.js';

/** What a CLI may do without asking (headless runs cannot ask). */
export type AgentCliPermissions =
  /** Everything: Gemini's `--yolo`, Claude Code's `--dangerously-skip-permissions` (refused as root). */
  | 'all'
  /** Only these tools (Claude Code permission rules like `Bash(ls -la)`, Gemini tool names). */
  | string[];

/** One run's CLI arguments and settings. */
export interface AgentCliRunSettings {
  prompt: string;
  permissions: AgentCliPermissions;
  /** Continue this session (from the first run's `init` line). */
  resumeSessionId?: string;
}

/** The program to start: for a Node CLI, `node` and its script. */
export interface AgentCliCommand {
  command: string;
  args: string[];
  /** The installed package's version. */
  version: string;
}

/**
 * Everything the harness knows about one agent CLI. Adding a CLI is adding one of these (plus
 * its vendor API in the stand-in when it speaks a new one).
 */
export interface AgentCliDefinition {
  /** Directory name of its fixtures, e.g. `claude-code`. */
  name: string;
  /** The command a user types (`claude`), written in the manifest in place of the install path. */
  programName: string;
  /** The npm package that pins it (from the `agent-clis` pnpm catalog). */
  packageName: string;
  /** The vendor API it calls, and so the stand-in it gets. */
  wire: ScenarioTurnContext['wire'];
  dialect: AgentCliToolDialect;
  /** Finds the installed CLI with the caller's module resolution (`createRequire(callerUrl)`). */
  resolve(require: NodeJS.Require): AgentCliCommand;
  args(settings: AgentCliRunSettings): string[];
  /** Writes the CLI's settings files into a fresh `HOME`; `baseURL` is the stand-in's API root. */
  writeSettings(home: string, settings: AgentCliRunSettings, baseURL: string): Promise<void>;
  /** Variables of its own on top of the offline environment (its API's base URL, its home). */
  env?(context: { home: string; baseURL: string }): Record<string, string>;
  /** Its session id in its stream, when that is not a line's `session_id` (Codex's `thread_id`). */
  sessionIdOf?(stdout: string): string | undefined;
}
