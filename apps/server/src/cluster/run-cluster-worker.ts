import cluster from 'node:cluster';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CairnError, type ModelAdapter, toCairnError } from '@cairn/core';
import { pino } from 'pino';
import { startServer } from '../main/start-server.js';
import type { PrimaryToWorker } from './cluster-messages.js';
import { createIpcEventBus } from './ipc-event-bus.js';
import { createIpcMetricsPeers } from './ipc-metrics-peers.js';
import { createIpcStreamPeers } from './ipc-stream-peers.js';
import { createIpcTurnLock } from './ipc-turn-lock.js';
import { createIpcTurnPeers } from './ipc-turn-peers.js';
import { type ProcessWorkerChannel, processWorkerChannel } from './worker-channel.js';

/**
 * A cluster worker: waits for the primary's `start`, serves the port like a single `cairn-server`
 * (with the primary's bus and turn locks on the fs and SQLite stores), and drains when the primary
 * says so — or when the primary is gone. Signals are the primary's business: a terminal's Ctrl-C
 * reaches every process of the group, and the primary forwards it once.
 */
export async function runClusterWorker(): Promise<void> {
  const workerId = cluster.worker?.id;
  if (workerId === undefined) throw new Error('runClusterWorker runs in a cluster worker only');
  const channel = processWorkerChannel();
  const ignoreSignal = () => {};
  process.on('SIGINT', ignoreSignal).on('SIGTERM', ignoreSignal);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  const start = await new Promise<Extract<PrimaryToWorker, { cairn: 'start' }> | undefined>((resolve) => {
    const off = channel.onMessage((message) => {
      if (message.cairn === 'start') resolve(message);
      // Told to stop before it started (another worker failed to): nothing to drain.
      if (message.cairn === 'shutdown') resolve(undefined);
      if (message.cairn === 'start' || message.cairn === 'shutdown') off();
    });
    channel.disconnected.addEventListener('abort', () => resolve(undefined));
    channel.send({ cairn: 'hello' });
  });
  if (start === undefined) return exit(channel, 0);
  const { config } = start;
  const logger = pino({
    level: config.logLevel,
    base: { service: 'cairn-server', worker: workerId, pid: process.pid },
  });

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    const model = start.modelModule === undefined ? undefined : await importModel(start.modelModule);
    server = await startServer(config, process.env, logger, {
      workerId,
      streamPeers: (kind) => createIpcStreamPeers(channel, kind),
      turnPeers: createIpcTurnPeers(channel),
      metricsPeers: createIpcMetricsPeers(channel),
      ...(config.store === 'postgres'
        ? {}
        : { local: () => ({ events: createIpcEventBus(channel), turnLock: createIpcTurnLock(channel) }) }),
      ...(model === undefined ? {} : { model }),
    });
  } catch (error) {
    // The primary reports it (once for the cluster, as a single process would).
    const cairnError = toCairnError(error, 'STORE_UNAVAILABLE');
    return exit(channel, 1, { cairn: 'failed', error: cairnError.toJSON() });
  }
  logger.debug({ url: server.url }, 'cluster worker serving');

  let draining = false;
  // Once: the primary's word and its disconnect may both ask.
  const drain = () => {
    if (draining) return;
    draining = true;
    server.shutdown().then(
      ({ abortedTurns }) => {
        logger.info({ abortedTurns }, 'cluster worker stopped');
        return exit(channel, 0, { cairn: 'stopped', abortedTurns });
      },
      (error: unknown) => {
        logger.error(
          { error: toCairnError(error, 'STORE_UNAVAILABLE').toJSON() },
          'cluster worker failed to stop',
        );
        return exit(channel, 1);
      },
    );
  };
  channel.onMessage((message) => {
    switch (message.cairn) {
      case 'shutdown':
        drain();
        break;
      case 'abort-now':
        server.abortNow();
        break;
      case 'stats': {
        const cpu = process.cpuUsage();
        const ms = (nanos: number) => (Number.isFinite(nanos) ? nanos / 1e6 : 0);
        channel.send({
          cairn: 'stats',
          stats: {
            workerId,
            pid: process.pid,
            cpuUserMicros: cpu.user,
            cpuSystemMicros: cpu.system,
            eventLoopDelayMs: {
              mean: ms(loopDelay.mean),
              p50: ms(loopDelay.percentile(50)),
              p99: ms(loopDelay.percentile(99)),
              max: ms(loopDelay.max),
            },
            activeTurns: server.handle.activeTurns(),
          },
        });
        if (message.resetLoopDelay) loopDelay.reset();
        break;
      }
    }
  });
  // Orphaned (the primary was killed): nobody keeps the locks any more, so this worker stops too.
  channel.disconnected.addEventListener('abort', drain);
  channel.send({
    cairn: 'listening',
    url: server.url,
    model: `${server.model.provider} ${server.model.modelId}`,
    modelFrom: server.model.source,
  });
}

/** The `createModel()` export of the module the cluster was started with (the bench's model). */
async function importModel(specifier: string): Promise<ModelAdapter> {
  const url = specifier.startsWith('file:') ? specifier : pathToFileURL(specifier).href;
  const module = (await import(url)) as { createModel?: () => ModelAdapter | Promise<ModelAdapter> };
  if (typeof module.createModel !== 'function') {
    throw new CairnError('INVALID_ARGUMENT', `${specifier} does not export createModel()`);
  }
  return module.createModel();
}

/** Tells the primary the last word (when connected) after what was queued, then ends the process. */
function exit(
  channel: ProcessWorkerChannel,
  code: number,
  last?: Parameters<NonNullable<typeof process.send>>[0],
): Promise<void> {
  channel.flush();
  return new Promise((resolve) => {
    const end = () => {
      process.exitCode = code;
      if (process.connected) process.disconnect();
      resolve();
      // What is left (an idle keep-alive timer of a driver) must not keep a stopped worker alive.
      setTimeout(() => process.exit(code), 1_000).unref();
    };
    if (last !== undefined && process.connected) process.send?.(last, undefined, {}, end);
    else end();
  });
}
