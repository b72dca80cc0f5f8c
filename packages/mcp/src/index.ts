export {
  type ConnectMcpServersOptions,
  connectMcpServers,
  type McpClient,
} from './connect-mcp-servers.js';
export {
  McpConfigSchema,
  type McpHttpServerConfig,
  McpHttpServerConfigSchema,
  type McpServerConfig,
  McpServerConfigSchema,
  type McpServers,
  type McpStdioServerConfig,
  McpStdioServerConfigSchema,
  type ParseMcpConfigOptions,
  parseMcpConfig,
  readMcpConfigFile,
} from './mcp-config.js';
export type { McpApproval } from './mcp-tool.js';
export { type McpToolRef, mcpToolNames } from './mcp-tool-name.js';
export type { McpToolOutput } from './mcp-tool-result.js';
