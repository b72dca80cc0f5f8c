import { definedFields } from '@cairn/core';
import { connectMcpServers, type McpClient, type McpServers, readMcpConfigFile } from '@cairn/mcp';
import type { ServerConfig } from '../config/server-config.js';

/**
 * The servers of `--mcp-config` / `CAIRN_MCP_CONFIG`, connected (none: `undefined`). Unlike the CLI,
 * the server reads no `.mcp.json` of its own accord: what an unattended server starts is named by
 * its operator. A bad file or a server that will not start stops the start-up, naming it.
 */
export async function connectConfiguredMcp(
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
): Promise<McpClient | undefined> {
  if (config.mcpConfigFiles.length === 0) return undefined;
  let servers: McpServers = {};
  for (const file of config.mcpConfigFiles)
    servers = { ...servers, ...(await readMcpConfigFile(file, { env })) };
  if (Object.keys(servers).length === 0) return undefined;
  return connectMcpServers(servers, {
    ...definedFields({ cwd: config.workspace }),
    clientInfo: { name: 'cairn-server', version: '0.0.0' },
  });
}
