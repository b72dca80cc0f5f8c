import { Command, Option } from 'commander';
import type { ServerFlags } from '../config/read-server-config.js';

/** `cairn-server`'s command line; `run` gets the parsed flags. */
export function serverProgram(version: string, run: (flags: ServerFlags) => Promise<void>): Command {
  return new Command('cairn-server')
    .description(
      'The Cairn HTTP + SSE API (and web page): conversations, streamed chat turns, run mode, agent sessions.\n' +
        'Requires CAIRN_API_TOKEN, unless --insecure-local on a loopback address.',
    )
    .version(version)
    .option('--host <host>', 'address to bind (env CAIRN_HOST)', undefined)
    .option('--port <port>', 'port to bind, 0 = any free one (env PORT)', undefined)
    .option('--insecure-local', 'run without CAIRN_API_TOKEN; only on a loopback address')
    .addOption(
      new Option('--store <kind>', 'where conversations live (env CAIRN_STORE)').choices([
        'fs',
        'sqlite',
        'postgres',
      ]),
    )
    .option('--data-dir <dir>', 'fs store and SQLite file location (env CAIRN_DATA_DIR)')
    .option(
      '--database-url <url>',
      'PostgreSQL connection string (prefer env DATABASE_URL: flags show in ps)',
    )
    .option(
      '--lock-connections <n>',
      'PostgreSQL connections for turn locks, also a turn cap (env CAIRN_LOCK_CONNECTIONS, default 32)',
    )
    .option('--provider <name>', 'openai, anthropic, gemini or openai-compatible (env CAIRN_PROVIDER)')
    .option('--model <id>', 'model id (env CAIRN_MODEL)')
    .option(
      '--models <id...>',
      'more model ids of the same provider a turn may pick, e.g. in the web page (env CAIRN_MODELS, comma-separated)',
    )
    .option('--base-url <url>', 'an OpenAI-compatible API root')
    .option('--workspace <dir>', 'give the model the workspace tools, sandboxed to DIR (env CAIRN_WORKSPACE)')
    .option('--allow-commands', 'let run_command run without approval (env CAIRN_ALLOW_COMMANDS=1)')
    .option(
      '--agent-sessions',
      'enable /v1/agent-sessions: Claude Code / Gemini CLI in the workspace (env CAIRN_AGENT_SESSIONS=1)',
    )
    .option(
      '--agent-env <name...>',
      'variables agent CLIs get from the server, e.g. ANTHROPIC_API_KEY (env CAIRN_AGENT_ENV)',
    )
    .option('--workflows <file...>', 'workflow files (YAML/JSON) for /v1/runs (env CAIRN_WORKFLOWS)')
    .option(
      '--mcp-config <file...>',
      "MCP servers (.mcp.json's mcpServers shape) whose tools the model may use (env CAIRN_MCP_CONFIG)",
    )
    .option(
      '--approval-ttl <seconds>',
      'how long a tool call waits for its approval before it is denied as expired (env CAIRN_APPROVAL_TTL, default 86400)',
    )
    .option(
      '--run-lease-ttl <seconds>',
      'how soon another process takes over a workflow run whose process died (env CAIRN_RUN_LEASE_TTL, default 30)',
    )
    .option(
      '--grace-period <seconds>',
      'on SIGTERM, how long running turns may finish (env CAIRN_GRACE_PERIOD, default 30)',
    )
    .option(
      '--max-concurrent-turns <n>',
      'turns at once before 429 (env CAIRN_MAX_CONCURRENT_TURNS, default 64)',
    )
    .option('--body-limit <bytes>', 'largest request body (env CAIRN_BODY_LIMIT, default 1048576)')
    .option(
      '--attachment-limit <bytes>',
      "largest total of a message's attachments (env CAIRN_ATTACHMENT_LIMIT, default 20971520)",
    )
    .option('--rate-limit <rps[:burst]|off>', 'requests per second per token (env CAIRN_RATE_LIMIT)')
    .option(
      '--cors-origin <origin...>',
      'allow these browser origins (env CAIRN_CORS_ORIGINS, comma-separated)',
    )
    .option(
      '--workers <n>',
      'processes serving the port, 1 = no cluster (env CAIRN_WORKERS, default: the number of cores)',
    )
    .option('--log-level <level>', 'pino level (env LOG_LEVEL, default info)')
    .option(
      '--otel',
      'export OpenTelemetry traces and metrics over OTLP/HTTP (OTEL_EXPORTER_OTLP_*; env CAIRN_OTEL=1)',
    )
    .option('--no-web', 'do not serve the web page at /')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  CAIRN_API_TOKEN=$(openssl rand -hex 32) OPENAI_API_KEY=sk-... cairn-server --port 8787',
        '  cairn-server --insecure-local --base-url http://localhost:11434/v1 --workspace .',
        '  CAIRN_API_TOKEN=... DATABASE_URL=postgres://... cairn-server --store postgres --host 0.0.0.0',
      ].join('\n'),
    )
    .action((flags: ServerFlags) => run(flags));
}
