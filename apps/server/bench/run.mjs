// pnpm --filter @cairn/server bench
// Smaller runs while developing: BENCH_CONVERSATIONS=200 BENCH_IDLE_STREAMS=100 (and the other
// BENCH_* settings below). BENCH_STORE (fs, fs:none, sqlite, sqlite:append, memory) is the main
// scenario's store; BENCH_EXTRA_STORES=memory,sqlite the other Cairn scenarios ('' for none);
// BENCH_PEER=0 skips the peer, BENCH_BREAKDOWN=0 the CPU profile (BENCH_PROFILE=<dir> keeps it),
// BENCH_WORKERS=0 the cluster (BENCH_WORKERS=4: four workers).
//
// The load test: 1,000 concurrent conversations, each streaming 10 turns from a scripted
// model, against real servers, each a fresh process of its own (scenarios.mjs, bench-server.mjs):
// - main: Cairn (createServerApp from ../dist on @hono/node-server at 127.0.0.1) on the fs store —
//   the server's default — in a temp dir with its default durability, compression off, an API
//   token, the in-process event bus and turn lock, default middleware with the per-token rate limit
//   raised out of the way, no request log; TURNS turns a conversation;
// - Cairn on the memory and SQLite stores, and the bare Hono peer (the same model's events as SSE,
//   no runtime, store, validation, auth or middleware): the same conversations at once, fewer
//   turns each (BENCH_OTHER_TURNS), to keep the run short;
// - workers: `cairn-server --workers 2`, its own cluster (bench-cluster.mjs: runClusterPrimary from
//   ../dist, configured as the command line would, the stamped model in every worker) on the fs
//   store, TURNS turns; CPU time of the primary and the workers; the goals for it: turns
//   done ≥ 90% of what the model's pacing offers, creates p99 ≤ 1 s, no errors, nothing lost;
// - breakdown: Cairn on the fs store again, BREAKDOWN_TURNS turns, with a V8 CPU profile of the turn
//   phase, its self time bucketed by cpu-categories.mjs (a separate process: profiling costs CPU
//   that must not be in the main scenario's CPU per turn).
// Each scenario (run-scenario.mjs): memory per idle /events stream (main only), a warm-up (50
// conversations of 2 turns, compiling the code paths), the create phase (every conversation created
// in one burst), then the turn phase (conversation-load.mjs):
// - Load: autocannon, one connection = one conversation (opened with an untimed GET /healthz), each
//   turn sent when the previous one's stream has ended (closed loop, no think time). The model streams 10 text chunks a turn, the
//   first ~FIRST_CHUNK_MS after the call, the rest ~CHUNK_MS apart (every wait drawn from 0.5–1.5 ×
//   its mean, so 1,000 conversations do not fire their chunks on the same timer tick): ~2.75 s of
//   model time a turn, so the conversations offer ~380 turns and ~3,800 text events a second; a
//   server that cannot keep up slows the turns down (turns/s done is printed against offered).
//   A turn counts on its successful `done` event. The server listens with a backlog of 4,096: with
//   Node's default 511, 1,000 connections opened at once overflow it and the refused ones retry
//   after 1, 3, 7, 15… s.
// - CPU per turn: the server process's CPU time (process.cpuUsage(), all its threads, not the load
//   generator's) over the turn phase ÷ turns done.
// - Whole turn against the model's pacing: the model stamps into its text when it was called, when
//   it emitted each chunk and the sum of the waits it meant to take (its pacing). A turn's duration
//   (timed by autocannon's thread) − that pacing is what the server added: before the model was
//   called (request, validation, storing the user message), the model's timers firing late (a busy
//   event loop) and turn end − last chunk (storing the answer, the closing events).
// - Per-event latency: autocannon only sees whole bodies, so a worker thread (sse-sampler.mjs) runs
//   SAMPLED more conversations of the same shape, reading each SSE event as it arrives (its own
//   thread, at a raised priority where allowed: neither autocannon's work nor the server's delays
//   its reads). Server-added latency of an event = the time
//   the sampler read it − the emit time in the chunk (sub-millisecond wall clocks, the offset between
//   the processes' clocks measured, best of 20 round trips, and corrected for). "From when due" adds
//   the wait for the model's timer (≈ a provider's chunk waiting unread in its socket).
// - Lost messages (count-store.mjs): after the load every conversation made (warm-up, autocannon's,
//   the sampler's) must hold exactly its turns' user and assistant messages, every answer with all
//   its chunks, and the store no other conversation; a persistent store is opened again here after
//   its server has exited, the memory store counted in the server before it closes.
// - Errors also count what the server and the runtime log at error level (a counting logger).
// Load generator, sampler and server share the machine's cores: on a busy machine every latency
// here includes waiting for a core, so the load average before the run is printed.
import { mkdir } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { report } from '@cairn/bench';
import { parseStore } from './open-store.mjs';
import { reportFigures } from './report-figures.mjs';
import { runScenario } from './run-scenario.mjs';
import { cairn, peer, workers } from './scenarios.mjs';
import { makeTempDir } from './temp-dir.mjs';

const setting = (name, fallback) => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};
const CONVERSATIONS = setting('BENCH_CONVERSATIONS', 1000);
const TURNS = setting('BENCH_TURNS', 10);
const CHUNKS = setting('BENCH_CHUNKS', 10);
const FIRST_CHUNK_MS = setting('BENCH_FIRST_CHUNK_MS', 500);
const CHUNK_MS = setting('BENCH_CHUNK_MS', 250);
const SAMPLED = setting('BENCH_SAMPLED', 50);
const IDLE_STREAMS = setting('BENCH_IDLE_STREAMS', 1000);
// The other scenarios run as many conversations at once, for fewer turns: the same load, shorter.
const OTHER_TURNS = Math.min(TURNS, setting('BENCH_OTHER_TURNS', 3));
const BREAKDOWN_TURNS = Math.min(TURNS, setting('BENCH_BREAKDOWN_TURNS', 2));
// `cairn-server --workers N` on the fs store, the same conversations × TURNS (0: not run).
const WORKERS = setting('BENCH_WORKERS', 2);
const MAIN_STORE = parseStore(process.env.BENCH_STORE || 'fs');
const EXTRA_STORES = (process.env.BENCH_EXTRA_STORES ?? 'memory,sqlite')
  .split(',')
  .filter((text) => text !== '')
  .map(parseStore);
const MODEL = { chunks: CHUNKS, firstChunkMs: FIRST_CHUNK_MS, chunkMs: CHUNK_MS };

const settings = {
  conversations: CONVERSATIONS,
  sampled: SAMPLED,
  chunks: CHUNKS,
  apiToken: 'bench-token-0123456789abcdef',
  warmUp: { conversations: Math.min(50, CONVERSATIONS), turns: 2 },
  server: {
    // Room for every conversation's turn at once: the bench measures latency, not the 429 cap.
    maxConcurrentTurns: 2 * (CONVERSATIONS + SAMPLED),
    // One token makes all 11,000+ requests: the per-token rate limit (default 20/s) is raised out of
    // the way rather than turned off, so its middleware still runs on every request.
    extraAppOptions: { rateLimit: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
    model: MODEL,
    seed: 0x5eed,
  },
};

// The servers, in the order they run; `main` is the one the goals are about, `baseline` the peer.
const main = cairn(MAIN_STORE);
const runs = [
  { role: 'main', scenario: main, turns: TURNS, measureMemory: IDLE_STREAMS > 0 },
  ...EXTRA_STORES.map((store) => ({ role: 'other', scenario: cairn(store), turns: OTHER_TURNS })),
  ...(process.env.BENCH_PEER === '0' ? [] : [{ role: 'baseline', scenario: peer(), turns: OTHER_TURNS }]),
  ...(WORKERS > 0 ? [{ role: 'workers', scenario: workers(WORKERS, parseStore('fs')), turns: TURNS }] : []),
  ...(process.env.BENCH_BREAKDOWN === '0'
    ? []
    : [{ role: 'breakdown', scenario: cairn(parseStore('fs')), turns: BREAKDOWN_TURNS, profile: true }]),
];

// Other work on the machine shows up in every latency here: its load before the run is printed.
const loadAverageBefore = loadavg().map((value) => Number(value.toFixed(2)));
console.log(
  `${availableParallelism()} cores, load average ${loadAverageBefore.join(' / ')} (1 / 5 / 15 min) before the run; ` +
    `scenarios: ${runs.map(({ scenario, turns }) => `${scenario.name} × ${turns} turns`).join(', ')}`,
);
// Interrupted, the bench still exits through 'exit': its servers are killed, its temp dirs removed.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const started = performance.now();
const tempProfileDir = process.env.BENCH_PROFILE ? undefined : makeTempDir('cairn-server-bench-profile-');
const profileDir = tempProfileDir?.path ?? process.env.BENCH_PROFILE;
if (tempProfileDir === undefined) await mkdir(profileDir, { recursive: true });
const results = [];
try {
  for (const run of runs) {
    console.log(`${run.scenario.name}: ${CONVERSATIONS} + ${SAMPLED} conversations × ${run.turns} turns…`);
    results.push({
      ...run,
      ...(await runScenario(run.scenario, {
        ...settings,
        turns: run.turns,
        idleStreams: run.measureMemory ? IDLE_STREAMS : 0,
        ...(run.profile ? { profileFile: join(profileDir, 'breakdown-turn-phase.cpuprofile') } : {}),
      })),
    });
  }
} finally {
  tempProfileDir?.remove();
}
const runSeconds = (performance.now() - started) / 1000;

const { figures, summary } = reportFigures(results, {
  model: MODEL,
  offeredTurnsPerSecond: ((CONVERSATIONS + SAMPLED) * 1000) / (FIRST_CHUNK_MS + (CHUNKS - 1) * CHUNK_MS),
  runSeconds,
});
const ok = report(
  `@cairn/server: ${CONVERSATIONS} concurrent conversations, streamed turns (autocannon, loopback), ` +
    `${results.length} server processes in ${(runSeconds / 60).toFixed(1)} min`,
  figures,
  {
    settings: {
      conversations: CONVERSATIONS,
      turns: TURNS,
      otherTurns: OTHER_TURNS,
      breakdownTurns: BREAKDOWN_TURNS,
      sampled: SAMPLED,
      idleStreams: IDLE_STREAMS,
      warmUp: settings.warmUp,
      model: MODEL,
    },
    machine: { cpus: availableParallelism(), loadAverageBefore },
    runSeconds,
    ...summary,
  },
);
process.exitCode = ok ? 0 : 1;
