import { CairnError, type Tool } from '@cairn/core';
import { createToolHost, type ToolHostOptions, type ToolRegistry } from '@cairn/loop';
import type { McpServers } from './mcp-config.js';
import { connectMcpServer } from './mcp-server-connection.js';
import { type McpApproval, mcpTool } from './mcp-tool.js';
import { mcpToolName, mcpToolNames } from './mcp-tool-name.js';

export interface ConnectMcpServersOptions {
  /** The tools' policy category: one for all (default `mcp`), or per server (`(server) => …`). */
  category?: string | ((server: string) => string);
  /** When a tool asks the user first; default `annotations` (unless it is marked read-only). */
  approval?: McpApproval;
  /** Time limit of each call; the tool host's default when absent. */
  timeoutMs?: number;
  /** How long a server may take to start and list its tools. Default 30 s. */
  startupTimeoutMs?: number;
  /** Working directory of stdio servers whose configuration sets none; the process's when absent. */
  cwd?: string;
  /** Sent to servers as the client's name. Default `cairn`. */
  clientInfo?: { name: string; version: string };
}

/** Connected MCP servers: their tools as Cairn tools, kept current as servers change them. */
export interface McpClient {
  /** The connected servers' names. */
  readonly servers: readonly string[];
  /** Every server's tools as Cairn tools, as last listed. */
  tools(): readonly Tool[];
  /**
   * A tool host with `tools` (the application's own) and the MCP tools, which follows the servers'
   * tool lists: after a `notifications/tools/list_changed` the next model call sees the new set.
   */
  toolHost(tools?: readonly Tool[], options?: ToolHostOptions): ToolRegistry;
  /** The running pid of each stdio server, by name. */
  pids(): Record<string, number>;
  /** Ends every session and stops every server process. */
  close(): Promise<void>;
}

const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/**
 * Connects to every server of `servers` at once (as read by `parseMcpConfig`). If one fails to
 * start, the others are closed again and its `MCP_SERVER_FAILED` is thrown: an agent missing some
 * of the tools it was configured with should not start as if nothing happened.
 */
export async function connectMcpServers(
  servers: McpServers,
  options: ConnectMcpServersOptions = {},
): Promise<McpClient> {
  const { category = 'mcp', approval = 'annotations' } = options;
  const categoryOf = typeof category === 'function' ? category : () => category;
  let version = 0;
  const onToolsChanged = () => {
    version += 1;
  };
  const settled = await Promise.allSettled(
    Object.entries(servers).map(([name, config]) =>
      connectMcpServer(name, config, {
        startupTimeoutMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
        clientInfo: options.clientInfo ?? { name: 'cairn', version: '0.0.0' },
        onToolsChanged,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      }),
    ),
  );
  const connections = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure !== undefined) {
    await Promise.allSettled(connections.map((connection) => connection.close()));
    throw failure.reason;
  }

  // The Cairn tools of the current lists, rebuilt only when a list changed.
  let built: { version: number; tools: Tool[] } | undefined;
  const tools = (): Tool[] => {
    if (built?.version === version) return built.tools;
    const refs = connections.flatMap((connection) =>
      connection.tools.map((tool) => ({
        connection,
        tool,
        ref: { server: connection.name, tool: tool.name },
      })),
    );
    const names = mcpToolNames(refs.map(({ ref }) => ref));
    built = {
      version,
      tools: refs.map(({ connection, tool, ref }) =>
        mcpTool(connection, tool, {
          name: mcpToolName(names, ref),
          category: categoryOf(connection.name),
          approval,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        }),
      ),
    };
    return built.tools;
  };

  return {
    servers: connections.map((connection) => connection.name),
    tools,
    toolHost(own = [], hostOptions = {}) {
      let current: { tools: readonly Tool[]; host: ToolRegistry } | undefined;
      const host = (): ToolRegistry => {
        const mcp = tools();
        if (current?.tools !== mcp)
          current = { tools: mcp, host: createToolHost([...own, ...mcp], hostOptions) };
        return current.host;
      };
      host(); // two tools of one name fail here, not on the first model call
      return {
        get tools() {
          return host().tools;
        },
        get: (name) => host().get(name),
        getVisibleTools: (visibility) => host().getVisibleTools(visibility),
        execute: (call, execution) => host().execute(call, execution),
      };
    },
    pids() {
      const pids: Record<string, number> = {};
      for (const connection of connections)
        if (connection.pid !== undefined) pids[connection.name] = connection.pid;
      return pids;
    },
    async close() {
      const results = await Promise.allSettled(connections.map((connection) => connection.close()));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed !== undefined) {
        throw new CairnError('MCP_SERVER_FAILED', `Closing MCP servers failed: ${String(failed.reason)}`, {
          cause: failed.reason,
        });
      }
    },
  };
}
