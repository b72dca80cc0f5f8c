import { definedFields } from '@cairn/core';
import { connectMcpServers, type McpClient, type McpServers, readMcpConfigFile } from '@cairn/mcp';

/**
 * The MCP servers of `files` connected (none: `undefined`). A bad file or a server that will not
 * start fails the command, naming the file or the server: an agent missing tools it was configured
 * with should not start as if nothing were wrong.
 */
export async function connectCliMcpServers(
  files: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<McpClient | undefined> {
  if (files.length === 0) return undefined;
  let servers: McpServers = {};
  for (const file of files)
    servers = { ...servers, ...(await readMcpConfigFile(file, { env: options.env })) };
  if (Object.keys(servers).length === 0) return undefined;
  return connectMcpServers(servers, {
    ...definedFields({ cwd: options.cwd }),
    clientInfo: { name: 'cairn-cli', version: '0.0.0' },
  });
}
