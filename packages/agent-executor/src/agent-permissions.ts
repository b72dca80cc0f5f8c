import { z } from 'zod';

/**
 * How much the agent may do without asking, in terms every CLI maps to its own flags:
 * - `read-only`: reading and searching; edits and commands are refused (the safe default of
 *   `cairn agent` and the server's agent sessions);
 * - `edit`: file edits are accepted too; commands still need `allowedTools`;
 * - `full`: everything, without asking (Claude Code `bypassPermissions`, Gemini CLI `yolo`).
 */
export const AGENT_PERMISSION_MODES = ['read-only', 'edit', 'full'] as const;

/**
 * One tool the agent may use without asking, in the CLI's own syntax: a name, optionally with a
 * parenthesised rule (`Read`, `Bash(git log:*)`, `run_shell_command(git)`). Never an option
 * (it cannot start with `-`) and never a list (no commas): it becomes a command-line argument.
 */
export const AllowedToolSchema = z
  .string()
  .max(200)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_.-]*(\([^(),\n\r\0]*\))?$/,
    'must be a tool name, optionally with a rule: Bash(git log:*)',
  );

export const AgentPermissionsSchema = z
  .object({
    mode: z.enum(AGENT_PERMISSION_MODES),
    /** More tools allowed without asking, on top of the mode's. */
    allowedTools: z.array(AllowedToolSchema).max(100).optional(),
  })
  .strict();

export type AgentPermissionMode = (typeof AGENT_PERMISSION_MODES)[number];
export type AgentPermissions = z.infer<typeof AgentPermissionsSchema>;
