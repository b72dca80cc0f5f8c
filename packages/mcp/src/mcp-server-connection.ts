import { CairnError } from '@cairn/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcp-config.js';

/** Longest SDK request timeout there is: the tool host's deadline and abort end a call, not the SDK. */
const NO_SDK_TIMEOUT = 2_147_483_647;
const STDERR_TAIL = 2000;

export interface McpServerConnectionOptions {
  /** Working directory of a stdio server whose configuration sets none. */
  cwd?: string;
  /** How long connecting and listing the tools may take. */
  startupTimeoutMs: number;
  /** Called after the server's tool list changed and was read again. */
  onToolsChanged(): void;
  /** Client name and version sent to servers. */
  clientInfo: { name: string; version: string };
}

/** One connected MCP server. */
export interface McpServerConnection {
  readonly name: string;
  /** Its tools, as last listed. */
  readonly tools: readonly McpTool[];
  /** The child process of a stdio server (while it runs). */
  readonly pid: number | undefined;
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

function serverFailed(name: string, problem: string, cause?: unknown, stderr?: string): CairnError {
  const tail = stderr?.trim() ? `\n${stderr.trim()}` : '';
  return new CairnError('MCP_SERVER_FAILED', `MCP server ${JSON.stringify(name)} ${problem}${tail}`, {
    details: { server: name },
    ...(cause === undefined ? {} : { cause }),
  });
}

function transportOf(config: McpServerConfig, cwd: string | undefined): Transport {
  if ('command' in config) {
    const dir = config.cwd ?? cwd;
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      // The SDK's safe defaults (PATH, HOME, …), not the whole environment: secrets reach a server
      // only when its configuration passes them.
      env: { ...getDefaultEnvironment(), ...config.env },
      stderr: 'pipe',
      ...(dir === undefined ? {} : { cwd: dir }),
    });
  }
  const url = new URL(config.url);
  const requestInit = config.headers === undefined ? {} : { requestInit: { headers: config.headers } };
  return config.type === 'sse'
    ? new SSEClientTransport(url, requestInit)
    : new StreamableHTTPClientTransport(url, requestInit);
}

// "HTTP 401 (check the server's headers): " for a refused HTTP connection.
function httpStatusText(error: unknown): string {
  const status = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  if (status === undefined) return '';
  return status === 401 || status === 403
    ? `HTTP ${status} (check its headers: Authorization): `
    : `HTTP ${status}: `;
}

async function listAllTools(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: NO_SDK_TIMEOUT });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/**
 * Starts (stdio) or reaches (HTTP) one server, initialises the session and lists its tools. A server
 * that will not start — a bad command, an exit at once, an unreachable URL, HTTP 401 — or does not
 * answer within `startupTimeoutMs` is an `MCP_SERVER_FAILED` naming it, with what it wrote to stderr.
 *
 * No reconnection: once the server has gone (its process exited, the HTTP session ended), the call
 * in flight fails and every later call is refused with `MCP_SERVER_FAILED`, until the application
 * connects again. A server that crashed once is likely to crash again, and a restarted one has lost
 * its state; the model is told, not silently handed a fresh server.
 */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: McpServerConnectionOptions,
): Promise<McpServerConnection> {
  const transport = transportOf(config, options.cwd);
  let stderr = '';
  if (transport instanceof StdioClientTransport) {
    // Read continuously (a full pipe would block the server); keep the tail for error messages.
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
  }
  let tools: McpTool[] = [];
  let closedBy: 'us' | 'server' | undefined;
  let refreshing = Promise.resolve();
  const client = new Client(options.clientInfo, {
    capabilities: {},
    listChanged: {
      tools: {
        autoRefresh: false,
        debounceMs: 0,
        onChanged: () => {
          // Refreshes run one after the other, so the last list read is the newest.
          refreshing = refreshing.then(async () => {
            try {
              tools = await listAllTools(client);
              options.onToolsChanged();
            } catch {
              // The server went away while we asked: its calls report that.
            }
          });
        },
      },
    },
  });
  client.onclose = () => {
    closedBy ??= 'server';
  };
  const startup = AbortSignal.timeout(options.startupTimeoutMs);
  try {
    await client.connect(transport, { signal: startup, timeout: options.startupTimeoutMs });
    tools = await listAllTools(client);
  } catch (error) {
    closedBy = 'us';
    await client.close().catch(() => {});
    const reason = startup.aborted
      ? `did not answer within ${options.startupTimeoutMs} ms`
      : `failed to start: ${httpStatusText(error)}${(error as Error).message}`;
    throw serverFailed(name, reason, error, stderr);
  }
  return {
    name,
    get tools() {
      return tools;
    },
    get pid() {
      return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    },
    async call(tool, args, signal) {
      if (closedBy !== undefined) {
        throw serverFailed(
          name,
          closedBy === 'us' ? 'is closed' : 'has stopped and is not reconnected',
          undefined,
          stderr,
        );
      }
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: NO_SDK_TIMEOUT,
        })) as CallToolResult;
      } catch (error) {
        if (signal.aborted) throw error;
        if (closedBy !== undefined)
          throw serverFailed(name, `stopped during the call to ${tool}`, error, stderr);
        throw error;
      }
    },
    async close() {
      closedBy = 'us';
      await client.close();
    },
  };
}
