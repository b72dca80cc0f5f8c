// The `--workers N` scenario's server process, run like bench-server.mjs (its own process, IPC):
// `cairn-server`'s own cluster (runClusterPrimary from ../dist) configured as the command line would
// (readServerConfig: N workers, the store asked for with its data directory in the scenario's
// directory, the API token, the per-token rate limit raised out of the way, no web page, log level
// `warn`), every worker using the stamped model (cluster-model.mjs).
//
// IPC, answered as `{ id, ...answer }`: `clock`, `loop-start` / `loop-stop` (the CPU time of the
// primary and every worker in between; the event-loop delay of the worst worker), `log` (warnings
// and errors the primary and the workers logged), `close`. Ready is `{ type: 'ready', port }`.
import nodeCluster from 'node:cluster';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readServerConfig, runClusterPrimary } from '../dist/index.js';
import { wallClock } from './stamped-model.mjs';

const config = JSON.parse(process.argv[2]);
const logged = { warn: 0, error: 0, samples: [] };
const count = (level, text) => {
  logged[level]++;
  if (logged.samples.length < 5) logged.samples.push(`${level}: ${text.slice(0, 300)}`);
};
const note = (level) => (fields, message) => count(level, `${message ?? ''} ${JSON.stringify(fields)}`);
const logger = { debug() {}, info() {}, warn: note('warn'), error: note('error') };
// The workers' pino lines come through pipes (silent workers): level 40 is warn, 50 and up error.
nodeCluster.setupPrimary({ silent: true });
nodeCluster.on('fork', (worker) => {
  worker.process.stderr?.pipe(process.stderr);
  createInterface({ input: worker.process.stdout }).on('line', (line) => {
    const level = /"level":(\d+)/.exec(line)?.[1];
    if (level !== undefined && Number(level) >= 40) count(Number(level) >= 50 ? 'error' : 'warn', line);
  });
});

const [rps, burst] = [
  config.extraAppOptions.rateLimit.requestsPerSecond,
  config.extraAppOptions.rateLimit.burst,
];
const serverConfig = readServerConfig(
  {
    port: '0',
    store: config.store.kind,
    dataDir: config.storeDir,
    workers: String(config.workers),
    maxConcurrentTurns: String(config.maxConcurrentTurns),
    rateLimit: `${rps}:${burst}`,
    logLevel: 'warn',
    web: false,
  },
  { CAIRN_API_TOKEN: config.apiToken },
  { cwd: config.storeDir },
);
const cluster = await runClusterPrimary({
  config: serverConfig,
  logger,
  modelModule: fileURLToPath(new URL('./cluster-model.mjs', import.meta.url)),
  env: { CAIRN_BENCH_MODEL: JSON.stringify({ ...config.model, seed: config.seed }) },
});

const LOOP_RESOLUTION_MS = 10;
const cpuMsOf = (stats) =>
  stats.reduce((sum, entry) => sum + (entry.cpuUserMicros + entry.cpuSystemMicros) / 1000, 0);
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let window;
const answers = {
  clock: () => ({ now: wallClock() }),
  log: () => ({ logged }),
  'loop-start': async () => {
    const stats = await cluster.stats({ resetLoopDelay: true });
    window = { workersCpuMs: cpuMsOf(stats), primaryCpuMs: ownCpuMs(), startedAt: performance.now() };
    return {};
  },
  'loop-stop': async () => {
    const stats = await cluster.stats();
    const elapsedMs = performance.now() - window.startedAt;
    const cpuMs = cpuMsOf(stats) - window.workersCpuMs + (ownCpuMs() - window.primaryCpuMs);
    // The histogram holds whole timer intervals: the delay is what exceeds the resolution.
    const worst = (field) =>
      Math.max(0, ...stats.map((entry) => entry.eventLoopDelayMs[field] - LOOP_RESOLUTION_MS));
    return {
      loopDelayMs: { p50: worst('p50'), p99: worst('p99'), max: worst('max') },
      cpuMs,
      cpuPercent: (cpuMs / elapsedMs) * 100,
      workers: stats.length,
    };
  },
  close: async () => {
    await cluster.shutdown();
    return {};
  },
};

process.on('message', async ({ id, type, payload }) => {
  const answer = await answers[type](payload);
  process.send({ id, ...answer }, () => {
    if (type === 'close') process.exit(0);
  });
});
// The bench went away without closing this server: its workers go with the primary.
process.once('disconnect', () => {
  cluster.abortNow();
  process.exit(1);
});
process.send({ type: 'ready', port: Number(new URL(cluster.url).port) });
