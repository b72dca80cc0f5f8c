import { readFile } from 'node:fs/promises';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { expandEnv } from './expand-env.js';

/** A server Cairn starts and talks to over its stdin and stdout. */
export const McpStdioServerConfigSchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'is empty'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** Working directory of the process; the caller's when absent. */
  cwd: z.string().min(1).optional(),
});

/** A server reached over HTTP: Streamable HTTP (`http`), or the older HTTP+SSE transport (`sse`). */
export const McpHttpServerConfigSchema = z.object({
  type: z.enum(['http', 'sse']),
  /** An http(s) URL, checked once its `${VAR}` references are expanded. */
  url: z.string().min(1, 'is empty'),
  /** Sent with every request (`Authorization: Bearer …`). */
  headers: z.record(z.string(), z.string()).optional(),
});

const HttpUrlSchema = z.url({ protocol: /^https?$/ });

export const McpServerConfigSchema = z.union([McpStdioServerConfigSchema, McpHttpServerConfigSchema]);

// What Claude Code accepts as a server name, and what fits in a tool name.
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** The `.mcp.json` shape Claude Code and Claude Desktop read: servers by name. */
export const McpConfigSchema = z.object({
  mcpServers: z.record(z.string(), z.unknown()),
});

export type McpStdioServerConfig = z.infer<typeof McpStdioServerConfigSchema>;
export type McpHttpServerConfig = z.infer<typeof McpHttpServerConfigSchema>;
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
/** Servers by name, validated and with their `${VAR}` references expanded. */
export type McpServers = Record<string, McpServerConfig>;

export interface ParseMcpConfigOptions {
  /** Where `${VAR}` references are read from; `process.env` when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Named in errors (a file path). */
  source?: string;
}

function invalid(where: string, problem: string, details: Record<string, unknown>): CairnError {
  return new CairnError('INVALID_ARGUMENT', `${where}: ${problem}`, { details });
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

// Each string of a server's settings, expanded: the command, args, env values, cwd, url, headers.
function expandServer(config: McpServerConfig, env: ParseMcpConfigOptions['env'] & {}, where: string) {
  const expand = (text: string, field: string) => expandEnv(text, env, `${where} field ${field}`);
  const expandRecord = (record: Record<string, string> | undefined, field: string) =>
    record === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(record).map(([key, value]) => [key, expand(value, `${field}.${key}`)]),
        );
  return 'command' in config
    ? {
        ...config,
        command: expand(config.command, 'command'),
        ...(config.args === undefined ? {} : { args: config.args.map((arg, i) => expand(arg, `args.${i}`)) }),
        ...(config.env === undefined ? {} : { env: expandRecord(config.env, 'env') }),
        ...(config.cwd === undefined ? {} : { cwd: expand(config.cwd, 'cwd') }),
      }
    : {
        ...config,
        url: expand(config.url, 'url'),
        ...(config.headers === undefined ? {} : { headers: expandRecord(config.headers, 'headers') }),
      };
}

/**
 * The servers of an `.mcp.json` document (`{ "mcpServers": { … } }`), validated, `${VAR}` and
 * `${VAR:-default}` expanded in every string (as Claude Code does). A mistake is an
 * `INVALID_ARGUMENT` naming the server and the field.
 */
export function parseMcpConfig(document: unknown, options: ParseMcpConfigOptions = {}): McpServers {
  const env = options.env ?? process.env;
  const prefix = options.source === undefined ? 'MCP configuration' : `MCP configuration ${options.source}`;
  const top = McpConfigSchema.safeParse(document);
  if (!top.success) {
    const issue = top.error.issues[0];
    const field = pathText(issue?.path ?? []);
    throw invalid(
      prefix,
      `${field === '' ? '' : `${field} `}${issue?.message ?? 'is invalid'} (expected { "mcpServers": { "<name>": { … } } })`,
      { field },
    );
  }
  const servers: McpServers = {};
  for (const [name, raw] of Object.entries(top.data.mcpServers)) {
    const where = `${prefix}, server ${JSON.stringify(name)}`;
    if (!SERVER_NAME.test(name)) {
      throw invalid(where, 'is not a server name (letters, digits, _ and -)', { server: name });
    }
    // The transport decides which fields are required: check against that one for a clear message.
    const isRemote = typeof raw === 'object' && raw !== null && 'type' in raw && raw.type !== 'stdio';
    const schema = isRemote ? McpHttpServerConfigSchema : McpStdioServerConfigSchema;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = pathText(issue?.path ?? []);
      throw invalid(
        where,
        `field ${field === '' ? '(the server)' : field} ${issue?.message ?? 'is invalid'}`,
        {
          server: name,
          field,
        },
      );
    }
    const expanded = expandServer(parsed.data, env, where);
    // A URL written with a variable is checked once it is known.
    if ('url' in expanded && !HttpUrlSchema.safeParse(expanded.url).success) {
      throw invalid(where, `field url is not an http(s) URL: ${expanded.url}`, {
        server: name,
        field: 'url',
      });
    }
    servers[name] = expanded as McpServerConfig;
  }
  return servers;
}

/** `parseMcpConfig` of a JSON file (an `.mcp.json`); an unreadable or non-JSON file is an `INVALID_ARGUMENT`. */
export async function readMcpConfigFile(
  path: string,
  options: Omit<ParseMcpConfigOptions, 'source'> = {},
): Promise<McpServers> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `MCP configuration ${path} cannot be read: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `MCP configuration ${path} is not JSON: ${(error as Error).message}`,
    );
  }
  return parseMcpConfig(document, { ...options, source: path });
}
