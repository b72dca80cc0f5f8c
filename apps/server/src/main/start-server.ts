import type { AddressInfo, Socket } from 'node:net';
import { basename, extname } from 'node:path';
import { type ResolvedModel, resolveModel } from '@cairn/connect';
import { CairnError, definedFields, type ModelAdapter } from '@cairn/core';
import { createWorkspaceTools } from '@cairn/loop/tools';
import { type OtelSdk, startOtelSdk } from '@cairn/otel/node';
import { createAgentRuntime, type RuntimeLogger, readWorkflowFile } from '@cairn/runtime';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { createServerApp, type ServerAppHandle } from '../app/create-server-app.js';
import type { MetricsPeers, TurnPeers } from '../app/route-deps.js';
import type { StreamPeersFactory } from '../app/streams/running-streams.js';
import type { ServerConfig } from '../config/server-config.js';
import { connectConfiguredMcp } from './connect-mcp.js';
import { type Backends, type LocalCoordination, openBackends, turnCap } from './open-backends.js';
import { startRunSupervisor } from './run-supervisor.js';
import { waitUntil } from './wait-until.js';

export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  model: ResolvedModel;
  handle: ServerAppHandle;
  /**
   * Graceful stop: no new connections or turns, live event streams end, running turns get
   * `gracePeriodMs` to finish, then are aborted (each stores its abort); then everything closes.
   */
  shutdown(options?: { gracePeriodMs?: number }): Promise<{ abortedTurns: number }>;
  /** Aborts the running turns now (a second signal), without waiting for the grace period. */
  abortNow(reason?: string): void;
}

/** How a cluster worker (or a test seam) differs from a plain `cairn-server` process. */
export interface StartServerOptions {
  /** The worker's id in its cluster: every answer names it in `X-Cairn-Worker`. */
  workerId?: number;
  /** The bus and turn lock for the fs and SQLite stores; default in-process. */
  local?: () => LocalCoordination;
  /** The cluster's other workers, for following running turns and aborts. */
  streamPeers?: StreamPeersFactory;
  turnPeers?: TurnPeers;
  /** The cluster's workers, for `/metrics` of the whole server. */
  metricsPeers?: MetricsPeers;
  /** A model instead of the configured one (the bench's scripted model): not closed by the server. */
  model?: ModelAdapter;
}

// Aborted turns still write their abort to the store; this bounds how long we wait for that.
const ABORT_SETTLE_MS = 10_000;
// How long ended streams may take to send their last bytes before their connections are cut.
const STREAMS_SETTLE_MS = 2_000;

const sockets = new WeakMap<ServerType, Set<Socket>>();
const openSockets = (server: ServerType) => sockets.get(server)?.size ?? 0;

/** Opens the store, resolves the model, and serves the API (and the web page) on `host:port`. */
export async function startServer(
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
  logger: RuntimeLogger,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const workflows = await Promise.all(
    config.workflowFiles.map((file) => readWorkflowFile(file, { name: basename(file, extname(file)) })),
  );
  const backends = await openBackends(config, logger, options.local);
  let model: ResolvedModel | undefined;
  // The other models a turn may pick (`--models`), on the default's provider.
  const extraModels: ResolvedModel[] = [];
  const closeModels = async () => {
    for (const resolved of [model, ...extraModels]) await resolved?.close();
  };
  let mcp: Awaited<ReturnType<typeof connectConfiguredMcp>> | undefined;
  let otel: OtelSdk | undefined;
  try {
    if (config.otel) otel = await startOtelSdk({ serviceName: 'cairn-server', env });
    const telemetry = otel?.telemetry;
    model = options.model === undefined ? await resolveModel(config.model, env, {}) : given(options.model);
    extraModels.push(...(await resolveExtraModels(config, env, model)));
    mcp = await connectConfiguredMcp(config, env);
    const workspaceTools =
      config.workspace === undefined ? [] : createWorkspaceTools({ root: config.workspace });
    const runtime = createAgentRuntime({
      store: backends.store,
      model: model.adapter,
      workflows,
      ...definedFields({ telemetry }),
      // MCP servers' tools beside the workspace tools, through the same host (policy, approval).
      ...(mcp === undefined ? { tools: workspaceTools } : { tools: mcp.toolHost(workspaceTools) }),
      settings: {
        ...definedFields({ projectRoot: config.workspace }),
        // Each request waits for a caller's decision, unless the operator allowed them up front.
        approvals: {
          ttlMs: config.approvalTtlMs,
          ...(config.allowCommands ? { decidedBy: 'allow-commands' } : {}),
        },
        runs: { leaseTtlMs: config.runLeaseTtlMs },
        ...(config.allowCommands ? { approve: async () => true } : {}),
      },
      logger,
    });
    const handle = createServerApp({
      store: backends.store,
      runtime,
      models: [model.adapter, ...extraModels.map((extra) => extra.adapter)],
      events: backends.events,
      turnLock: backends.turnLock,
      workflows,
      ...definedFields({ apiToken: config.apiToken }),
      bodyLimitBytes: config.bodyLimitBytes,
      attachmentLimitBytes: config.attachmentLimitBytes,
      maxConcurrentTurns: turnCap(config),
      ...definedFields({ rateLimit: config.rateLimit }),
      ...(config.corsOrigins.length === 0 ? {} : { cors: { origins: config.corsOrigins } }),
      ...(config.agentSessions && config.workspace !== undefined
        ? { agentSessions: { workspaceRoot: config.workspace, passEnv: config.agentEnv } }
        : {}),
      ...definedFields({
        webRoot: config.webRoot,
        telemetry,
        streamPeers: options.streamPeers,
        turnPeers: options.turnPeers,
        metricsPeers: options.metricsPeers,
      }),
      logger,
    });
    const server = await listen(handle, config.host, config.port, options.workerId);
    // Half the lease's ttl: a dead process's run moves within about one and a half ttls.
    const supervisor = startRunSupervisor({
      runtime,
      events: backends.events,
      logger,
      intervalMs: Math.max(500, Math.floor(config.runLeaseTtlMs / 2)),
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const aborted = { turns: 0 };
    const openedMcp = mcp;
    return {
      url: `http://${host}:${address.port}`,
      model,
      handle,
      abortNow(reason = 'server stopping now') {
        aborted.turns += handle.activeTurns();
        handle.abortAll(reason);
        void supervisor.stop(0);
      },
      shutdown: async (options = {}) => {
        const gracePeriodMs = options.gracePeriodMs ?? config.gracePeriodMs;
        // A taken-over run's turn gets the same grace as the requests' turns, at the same time;
        // the store closes once both are done.
        const supervisorStopped = supervisor.stop(gracePeriodMs);
        const result = await shutdown(
          aborted,
          server,
          handle,
          { backends, closeModels, before: supervisorStopped },
          gracePeriodMs,
        ).finally(() => openedMcp?.close().catch(() => {}));
        // The last requests' spans are exported before the process ends.
        await otel?.shutdown();
        return result;
      },
    };
  } catch (error) {
    await mcp?.close().catch(() => {});
    await closeModels();
    await backends.close();
    await otel?.shutdown();
    throw error;
  }
}

// Node's default (511) overflows when a thousand clients connect at once; the kernel caps it anyway.
const LISTEN_BACKLOG = 4_096;

function listen(
  handle: ServerAppHandle,
  hostname: string,
  port: number,
  workerId: number | undefined,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = createAdaptorServer({ fetch: handle.app.fetch });
    const open = new Set<Socket>();
    sockets.set(server, open);
    server.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    if (workerId !== undefined) {
      // First, before Hono answers: which worker served the request (logs, tests, a misbehaving worker).
      const name = String(workerId);
      server.prependListener('request', (_request, response) => response.setHeader('x-cairn-worker', name));
    }
    server.listen({ host: hostname, port, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', failed);
      resolve(server);
    });
    function failed(error: NodeJS.ErrnoException) {
      const fix =
        error.code === 'EADDRINUSE'
          ? 'stop the other server, or pass another --port'
          : 'check --host / --port (binding below 1024 needs privileges)';
      reject(
        new CairnError(
          'INVALID_ARGUMENT',
          `cannot listen on ${hostname}:${port}: ${error.code ?? error.message}`,
          {
            details: { fix },
          },
        ),
      );
    }
    server.once('error', failed);
  });
}

/** `--models`: more ids on the default model's provider and base URL, each resolved as `--model` would be. */
async function resolveExtraModels(
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
  model: ResolvedModel,
): Promise<ResolvedModel[]> {
  const ids = config.models.filter((id) => id !== model.modelId);
  if (ids.length === 0) return [];
  if (model.provider === 'demo') {
    throw new CairnError(
      'INVALID_ARGUMENT',
      '--models needs a provider to pick them from (--provider, --model)',
    );
  }
  const extras: ResolvedModel[] = [];
  for (const id of ids)
    extras.push(await resolveModel({ ...config.model, provider: model.provider, model: id }, env, {}));
  return extras;
}

/** A model handed in by the caller, described like a resolved one. */
function given(adapter: ModelAdapter): ResolvedModel {
  return {
    adapter,
    provider: 'demo',
    modelId: adapter.modelId,
    source: `a ${adapter.provider} adapter given to startServer`,
    demo: false,
    async close() {},
  };
}

async function shutdown(
  aborted: { turns: number },
  server: ServerType,
  handle: ServerAppHandle,
  closing: { backends: Backends; closeModels: () => Promise<void>; before: Promise<void> },
  gracePeriodMs: number,
): Promise<{ abortedTurns: number }> {
  const { backends, closeModels } = closing;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  handle.beginShutdown();
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  const finished = await waitUntil(() => handle.activeTurns() === 0, gracePeriodMs);
  if (!finished) {
    aborted.turns += handle.activeTurns();
    handle.abortAll('server shutting down');
    await waitUntil(() => handle.activeTurns() === 0, ABORT_SETTLE_MS);
  }
  // Turn streams have sent their last event by now, and live event streams were told to end: their
  // connections close as their last bytes go out (at once when no turn ran). What is left open is stuck.
  await waitUntil(() => {
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    return openSockets(server) === 0;
  }, STREAMS_SETTLE_MS);
  if ('closeAllConnections' in server) server.closeAllConnections();
  await closed;
  await closing.before;
  await backends.close();
  await closeModels();
  return { abortedTurns: aborted.turns };
}
