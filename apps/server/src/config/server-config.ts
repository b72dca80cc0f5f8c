import { STORE_KINDS } from '@cairn/connect';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65_535);
const positiveInt = z.coerce.number().int().positive();

export const RateLimitSchema = z.union([
  z.literal(false),
  z.object({ requestsPerSecond: z.number().positive(), burst: z.number().int().positive() }),
]);

/** Everything `cairn-server` runs with, after flags > environment > defaults. */
export const ServerConfigSchema = z
  .object({
    host: z.string().min(1),
    port,
    /** From `CAIRN_API_TOKEN` only: a flag would show in `ps`. */
    apiToken: z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^\S+$/, 'must not contain spaces')
      .optional(),
    insecureLocal: z.boolean(),
    store: z.enum(STORE_KINDS),
    dataDir: z.string().min(1),
    databaseUrl: z.string().min(1).optional(),
    model: z.object({
      provider: z.enum(['openai', 'anthropic', 'gemini', 'openai-compatible']).optional(),
      model: z.string().min(1).optional(),
      baseURL: z.string().min(1).optional(),
    }),
    /** More model ids of the same provider a turn may pick (`GET /v1/models`); `model` stays the default. */
    models: z.array(z.string().min(1)),
    /** The directory the workspace tools work in; absent = the model gets no tools. */
    workspace: z.string().min(1).optional(),
    /**
     * Lets tools that need approval (run_command, MCP tools not marked read-only) run without asking;
     * otherwise their turn ends waiting for a decision (`POST …/approvals/{approvalId}`).
     */
    allowCommands: z.boolean(),
    /** How long a request waits for its decision before it is decided `expired` (the call denied). */
    approvalTtlMs: z.number().int().min(1000),
    /** How long a run's lease lasts unrenewed: how soon a live worker takes over a dead one's run. */
    runLeaseTtlMs: z.number().int().min(1000),
    /** Export OpenTelemetry traces and metrics over OTLP/HTTP (the standard `OTEL_*` variables). */
    otel: z.boolean().optional(),
    /** How long in-flight turns may finish after SIGTERM before they are aborted. */
    gracePeriodMs: z.number().int().min(0),
    maxConcurrentTurns: positiveInt,
    bodyLimitBytes: positiveInt,
    /** Largest total of a message's attachments, in bytes (a larger upload is answered 413). */
    attachmentLimitBytes: positiveInt,
    corsOrigins: z.array(z.string().min(1)),
    /** Undefined = the app's default limit. */
    rateLimit: RateLimitSchema.optional(),
    /** Runs Claude Code / Gemini CLI in the workspace: off unless asked for, since it runs code. */
    agentSessions: z.boolean(),
    /** Variables (besides PATH, HOME, locale, TERM, TMPDIR, TZ) an agent session's CLI gets from the server's environment. */
    agentEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be variable names')),
    /** MCP configuration files (the `.mcp.json` shape) whose servers' tools the model may use. */
    mcpConfigFiles: z.array(z.string().min(1)),
    /** Workflow files (YAML or JSON) for /v1/runs; each file's package is named after it. */
    workflowFiles: z.array(z.string().min(1)),
    /** PostgreSQL connections for turn locks (each running turn holds one). */
    lockConnections: positiveInt,
    /**
     * Processes serving the port (node:cluster): 1 = a single process, no cluster. Limits hold for the
     * whole server: each worker gets its share of `maxConcurrentTurns` and of the rate limit.
     */
    workers: positiveInt,
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    /** The built web page; absent = no page at `/`. */
    webRoot: z.string().min(1).optional(),
  })
  .strict();

export type ServerConfig = z.infer<typeof ServerConfigSchema>;
