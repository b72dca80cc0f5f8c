import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The project's MCP servers, in the `.mcp.json` shape Claude Code reads from the same place. */
export const PROJECT_MCP_CONFIG = '.mcp.json';

/**
 * The MCP configuration files to load, in order (a later file's server replaces an earlier one of
 * the same name): `./.mcp.json` when there is one, then each `--mcp-config`. With
 * `--strict-mcp-config` (Claude Code's flag) only the `--mcp-config` files.
 */
export function mcpConfigFiles(
  flags: { mcpConfig?: string[]; strictMcpConfig?: boolean },
  cwd: string,
): string[] {
  const given = (flags.mcpConfig ?? []).map((file) => resolve(cwd, file));
  const project = resolve(cwd, PROJECT_MCP_CONFIG);
  const withProject = flags.strictMcpConfig !== true && existsSync(project) && !given.includes(project);
  return withProject ? [project, ...given] : given;
}
