// pnpm --filter @cairn/server bench
// Smaller runs while developing: BENCH_CONVERSATIONS=50 BENCH_IDLE_STREAMS=50 BENCH_PEER=0 (and the
// other BENCH_* settings below); BENCH_STORE=sqlite (or fs:none, sqlite:append, …) picks the store.
//
// The load test: 1,000 concurrent conversations, each streaming 10 turns from a scripted
// model, against the real server in its own process (bench-server.mjs: createServerApp from
// ../dist on @hono/node-server at 127.0.0.1, the fs store — the server's default — in a temp dir
// with its default durability, compression off, an API token, the in-process event bus and turn
// lock, default middleware with the per-token rate limit raised out of the way, no request log).
//
// Design:
// - Load: autocannon, one connection = one conversation: POST /v1/conversations, then 10 ×
//   POST …/messages with `Accept: text/event-stream`, each turn sent when the previous one's
//   stream has ended (closed loop, no think time). The model streams 10 text chunks a turn, the
//   first ~FIRST_CHUNK_MS after the call, the rest ~CHUNK_MS apart (every wait drawn from 0.5–1.5 ×
//   its mean, so 1,000 conversations do not fire their chunks on the same timer tick): ~2.75 s of
//   model time a turn, so the conversations offer ~380 turns and ~3,800 text events a second; a
//   server that cannot keep up slows the turns down (the table shows turns/s done against offered).
//   autocannon gives requests/s, errors, timeouts, non-2xx and whole-request latency (mostly the
//   model's pacing); its onResponse checks that every turn's body ends with a successful `done`
//   event. The server listens with a backlog of 4,096: with Node's default 511, 1,000 connections
//   opened at once overflow it and the refused ones retry after 1, 3, 7, 15… s.
// - Per-event latency: autocannon only sees whole bodies, so a worker thread (sse-sampler.mjs) runs
//   SAMPLED more conversations of the same shape, started with autocannon's (1,000 + 50 in all),
//   reading each SSE event as it arrives (its own thread: autocannon's work does not delay reads).
//   Each text chunk carries the wall-clock time (performance.timeOrigin + performance.now(),
//   sub-millisecond, comparable across processes) at which the model handed it to Cairn. Server-added latency of an event =
//   the time the sampler read it off the socket − that emit time: the runtime, the routes, SSE
//   framing, the socket write, loopback and the sampler's read. An in-process model's chunk is
//   emitted only when the server's event loop runs its timer, so that wait is not in the figure;
//   each chunk therefore also carries when its timer was due, and "from when due" (≈ a provider's
//   chunk waiting unread in its socket) and the server's event-loop delay are printed next to it.
//   The offset between the processes' clocks is measured (best of 20 round trips) and corrected for.
// - Lost messages: after the load the server is closed and the same store is opened here; every
//   conversation made (autocannon's and the sampler's) must hold exactly 10 user and 10 assistant
//   messages, every answer with all its chunks, and the store no other conversation.
// - Warm-up: before the load, 50 conversations of 2 turns compile the server's code paths (their
//   messages are counted too); the peer gets the same.
// - Memory: before the load, IDLE_STREAMS idle GET …/events streams are opened on the server (after
//   a warm-up batch); its heap (after forced GCs, asked over IPC) and RSS before and after ÷ streams
//   is the memory per open stream. They are closed again and the heap read once more.
// - Peer: the same load and sampler against a bare Hono SSE endpoint streaming the same model's
//   events (same process layout; no runtime, store, validation, auth or middleware), with as many
//   conversations at once but 3 turns each (BENCH_PEER_TURNS), to keep the run short.
// - Errors also count what the server and the runtime log at error level (a counting logger).
// Load generator, sampler and server share the machine's cores: on a busy machine every latency
// here includes waiting for a core, so the load average before the run is printed.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { report } from '@cairn/bench';
import autocannon from 'autocannon';
import { describeStore, openStore, parseStore } from './open-store.mjs';
import { STAMP_PATTERN, wallClock } from './stamped-model.mjs';

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
const PEER = process.env.BENCH_PEER !== '0';
// The peer runs the same number of conversations at once, for fewer turns: the same load, shorter.
const PEER_TURNS = Math.min(TURNS, setting('BENCH_PEER_TURNS', 3));
const STORE = parseStore(process.env.BENCH_STORE || 'fs');
const P99_GOAL_MS = 5;
const API_TOKEN = 'bench-token-0123456789abcdef';
const MODEL = { chunks: CHUNKS, firstChunkMs: FIRST_CHUNK_MS, chunkMs: CHUNK_MS };
const WARM_UP = { conversations: Math.min(50, CONVERSATIONS), turns: 2 };

// ---- The server process ----

async function startServer(mode, storeDir) {
  const config = {
    mode,
    storeDir,
    store: STORE,
    apiToken: API_TOKEN,
    // Room for every conversation's turn at once: the bench measures latency, not the 429 cap.
    maxConcurrentTurns: 2 * (CONVERSATIONS + SAMPLED),
    // One token makes all 11,000+ requests: the per-token rate limit (default 20/s) is raised out of
    // the way rather than turned off, so its middleware still runs on every request.
    extraAppOptions: { rateLimit: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
    model: MODEL,
    seed: 0x5eed,
  };
  const child = fork(new URL('./bench-server.mjs', import.meta.url), [JSON.stringify(config)], {
    execArgv: [
      '--expose-gc',
      // BENCH_PROFILE=<dir>: a CPU profile of the server process, written when it exits.
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A failed run must not leave the server behind.
  const kill = () => child.kill();
  process.once('exit', kill);
  const pending = new Map();
  let nextId = 0;
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server (${mode}) exited with ${code}`)));
    child.on('message', (message) => {
      if (message.type === 'ready') resolve(message.port);
      const { id, ...answer } = message;
      pending.get(id)?.(answer);
      pending.delete(id);
    });
  });
  const ask = (type) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, type });
    });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    port,
    ask,
    async close() {
      await ask('close');
      await exited;
      process.off('exit', kill);
    },
  };
}

/** Remote clock − local clock (ms), from the round trip with the smallest delay. */
async function clockOffset(askRemote, rounds = 20) {
  let best = { roundTrip: Number.POSITIVE_INFINITY, offset: 0 };
  for (let round = 0; round < rounds; round++) {
    const sent = wallClock();
    const { now } = await askRemote();
    const received = wallClock();
    if (received - sent < best.roundTrip)
      best = { roundTrip: received - sent, offset: now - (sent + received) / 2 };
  }
  return best;
}

// ---- Memory per open SSE stream ----

function openEventStream(port, conversationId) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/v1/conversations/${conversationId}/events`,
        headers: { authorization: `Bearer ${API_TOKEN}`, accept: 'text/event-stream' },
        agent: false,
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`events: HTTP ${response.statusCode}`));
        // The server writes `: connected` at once: the stream is set up on its side.
        response.once('data', () => resolve(request));
      },
    );
    request.on('error', reject);
  });
}

async function openStreams(port, count, prefix) {
  const requests = [];
  for (let opened = 0; opened < count; opened += 100) {
    const batch = Array.from({ length: Math.min(100, count - opened) }, (_, index) =>
      openEventStream(port, `${prefix}-${opened + index}`),
    );
    requests.push(...(await Promise.all(batch)));
  }
  return requests;
}

async function closeStreams(requests) {
  for (const request of requests) request.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
}

async function measureStreamMemory(server) {
  // The first streams after start-up compile code and fill caches that stay: some are opened and
  // closed before the baseline, so it is not counted as the streams' own memory.
  await closeStreams(await openStreams(server.port, Math.min(100, IDLE_STREAMS), 'warm-up'));
  const before = (await server.ask('memory')).memory;
  const requests = await openStreams(server.port, IDLE_STREAMS, 'idle');
  const open = (await server.ask('memory')).memory;
  await closeStreams(requests);
  const closed = (await server.ask('memory')).memory;
  const perStream = (field) => (open[field] - before[field]) / IDLE_STREAMS;
  return {
    streams: IDLE_STREAMS,
    heapBytesPerStream: perStream('heapUsed'),
    externalBytesPerStream: perStream('external'),
    rssBytesPerStream: perStream('rss'),
    heapUsedMB: {
      before: before.heapUsed / 2 ** 20,
      open: open.heapUsed / 2 ** 20,
      closed: closed.heapUsed / 2 ** 20,
    },
    rssMB: { before: before.rss / 2 ** 20, open: open.rss / 2 ** 20, closed: closed.rss / 2 ** 20 },
  };
}

// ---- The load: autocannon's conversations + the sampler's ----

const percentile = (sorted, p) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * autocannon with one connection per conversation: create it, then `turns` streamed turns. Returns
 * autocannon's result, the conversation ids and every turn's check (a successful `done` event, and
 * when the response ended − when its last chunk was emitted, on `clockOffset` = server − here).
 */
async function conversationLoad(server, { connections, turns, clockOffset = 0 }) {
  const jsonHeaders = { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' };
  const conversationIds = [];
  const turnCheck = { ok: 0, failed: 0, firstFailure: undefined, endLatencies: [] };
  // Each request's duration by kind, timed here (autocannon's histogram mixes them).
  const durations = { create: [], turn: [] };
  const sent = (request, context) => {
    context.sentAt = performance.now();
    return request;
  };
  const onTurn = (status, body, context) => {
    durations.turn.push(performance.now() - context.sentAt);
    const ended = wallClock() + clockOffset;
    if (status === 200 && body.includes('event: done\ndata: {"success":true}')) {
      turnCheck.ok++;
      let last = 0;
      for (const [, emitted] of body.matchAll(STAMP_PATTERN)) last = Math.max(last, Number(emitted));
      turnCheck.endLatencies.push(ended - last);
    } else {
      turnCheck.failed++;
      turnCheck.firstFailure ??= `HTTP ${status}: ${body.slice(-300)}`;
    }
  };
  const requests = [
    {
      method: 'POST',
      path: '/v1/conversations',
      headers: jsonHeaders,
      body: '{}',
      setupRequest: sent,
      onResponse(status, body, context) {
        durations.create.push(performance.now() - context.sentAt);
        context.id = status === 201 ? JSON.parse(body).id : `not-created-${conversationIds.length}`;
        conversationIds.push(context.id);
      },
    },
    ...Array.from({ length: turns }, (_, turn) => ({
      method: 'POST',
      headers: { ...jsonHeaders, accept: 'text/event-stream' },
      setupRequest: (request, context) =>
        sent(
          {
            ...request,
            path: `/v1/conversations/${context.id}/messages`,
            body: JSON.stringify({ content: `turn ${turn + 1}: hello` }),
          },
          context,
        ),
      onResponse: onTurn,
    })),
  ];
  const result = await autocannon({
    url: server.baseURL,
    connections,
    amount: connections * (turns + 1),
    // A turn's stream may take long under load; a timeout would make autocannon reconnect and
    // move on to the next request, breaking the conversation's sequence.
    timeout: 120,
    requests,
  });
  const summary = (values) => {
    const sorted = values.sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
  };
  return {
    result,
    conversationIds,
    turnCheck,
    durationsMs: { create: summary(durations.create), turn: summary(durations.turn) },
  };
}

/** A fresh server compiles its code paths on the first turns: run some before measuring. */
async function warmUp(server) {
  const { result, conversationIds, turnCheck } = await conversationLoad(server, {
    connections: WARM_UP.conversations,
    turns: WARM_UP.turns,
  });
  const failures = result.errors + result.timeouts + result.non2xx + turnCheck.failed;
  if (failures > 0) throw new Error(`warm-up failed: ${failures} errors; ${turnCheck.firstFailure ?? ''}`);
  return conversationIds;
}

async function runLoad(server, turns) {
  const sampler = new Worker(new URL('./sse-sampler.mjs', import.meta.url), {
    workerData: { baseURL: server.baseURL, apiToken: API_TOKEN, clients: SAMPLED, turns },
  });
  const samplerResult = new Promise((resolve, reject) => {
    sampler.on('message', (message) => message.type === 'result' && resolve(message));
    sampler.once('error', reject);
  });
  const askSampler = () =>
    new Promise((resolve) => {
      const listener = (message) => {
        if (message.type !== 'clock') return;
        sampler.off('message', listener);
        resolve(message);
      };
      sampler.on('message', listener);
      sampler.postMessage('clock');
    });
  // Server clock − this thread's, and − the sampler's (corrected for, below).
  const serverOffset = await clockOffset(() => server.ask('clock'));
  const samplerOffset = await clockOffset(askSampler);
  // (server − here) − (sampler − here).
  const offset = serverOffset.offset - samplerOffset.offset;

  await server.ask('loop-start');
  sampler.postMessage('start');
  const started = performance.now();
  const load = conversationLoad(server, {
    connections: CONVERSATIONS,
    turns,
    clockOffset: serverOffset.offset,
  });
  const [{ result, conversationIds, turnCheck, durationsMs }, sampled] = await Promise.all([
    load,
    samplerResult,
  ]);
  const loadSeconds = (performance.now() - started) / 1000;
  const loop = await server.ask('loop-stop');
  const { logged } = await server.ask('log');
  await sampler.terminate();

  // measured = arrival (sampler clock) − emit (server clock) = true latency − offset.
  const corrected = (values) => Array.from(values, (latency) => latency + offset).sort((a, b) => a - b);
  const latencies = corrected(sampled.latencies);
  const sinceDue = corrected(sampled.sinceDue);
  const endLatencies = turnCheck.endLatencies.sort((a, b) => a - b);
  return {
    autocannon: result,
    durationsMs,
    logged,
    loadSeconds,
    conversationIds,
    turnCheck,
    sampled,
    latencies,
    perEventMs: {
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      events: latencies.length,
    },
    sinceDueMs: { p50: percentile(sinceDue, 50), p99: percentile(sinceDue, 99), max: sinceDue.at(-1) },
    turnEndMs: { p50: percentile(endLatencies, 50), p99: percentile(endLatencies, 99) },
    clock: {
      offsetMs: offset,
      serverRoundTripMs: serverOffset.roundTrip,
      samplerRoundTripMs: samplerOffset.roundTrip,
    },
    loop,
  };
}

const loadErrors = (load) => {
  const { autocannon: result } = load;
  return {
    autocannonErrors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    failedTurns: load.turnCheck.failed,
    samplerProblems: load.sampled.problems.length,
    serverLoggedErrors: load.logged.error,
    total:
      result.errors +
      result.timeouts +
      result.non2xx +
      load.turnCheck.failed +
      load.sampled.problems.length +
      load.logged.error,
  };
};

// ---- Counting what the store holds ----

/** `groups`: `{ ids, turns }` — conversations and the turns each must hold. */
async function countStore(storeDir, groups) {
  const store = openStore(STORE, storeDir);
  try {
    const counts = {
      conversations: groups.reduce((sum, { ids }) => sum + ids.length, 0),
      expected: 0,
      found: 0,
      lost: 0,
      extra: 0,
      shortAnswers: 0,
    };
    for (const { ids, turns } of groups) {
      for (const id of ids) {
        const messages = await store.load(id, { limit: 10 * turns });
        const users = messages.filter((message) => message.role === 'user').length;
        const answers = messages.filter((message) => message.role === 'assistant');
        counts.expected += 2 * turns;
        counts.found += messages.length;
        counts.lost += Math.max(0, turns - users) + Math.max(0, turns - answers.length);
        counts.extra += Math.max(0, users - turns) + Math.max(0, answers.length - turns);
        counts.extra += messages.length - users - answers.length;
        for (const answer of answers) {
          if ((answer.content ?? '').match(STAMP_PATTERN)?.length !== CHUNKS) counts.shortAnswers++;
        }
      }
    }
    let stored = 0;
    let cursor;
    do {
      const page = await store.listConversations({ limit: 500, ...(cursor === undefined ? {} : { cursor }) });
      stored += page.conversations.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    counts.storedConversations = stored;
    return counts;
  } finally {
    await store.close();
  }
}

// ---- The run ----

// Other work on the machine shows up in every latency here: its load before the run is printed.
const loadAverageBefore = loadavg().map((value) => Number(value.toFixed(2)));
console.log(
  `${availableParallelism()} cores, load average ${loadAverageBefore.join(' / ')} (1 / 5 / 15 min) before the run; ` +
    `store: ${describeStore(STORE)}`,
);
const storeDir = await mkdtemp(join(tmpdir(), 'cairn-server-bench-'));
let cairn;
let memory;
let counts;
let bare;
let warmUpIds;
try {
  const server = await startServer('cairn', storeDir);
  try {
    memory = await measureStreamMemory(server);
    warmUpIds = await warmUp(server);
    cairn = await runLoad(server, TURNS);
  } finally {
    await server.close();
  }
  counts = await countStore(storeDir, [
    { ids: [...cairn.conversationIds, ...cairn.sampled.conversations], turns: TURNS },
    { ids: warmUpIds, turns: WARM_UP.turns },
  ]);
  if (PEER) {
    const peer = await startServer('bare');
    try {
      await warmUp(peer);
      bare = await runLoad(peer, PEER_TURNS);
    } finally {
      await peer.close();
    }
  }
} finally {
  await rm(storeDir, { recursive: true, force: true });
}

const errors = loadErrors(cairn);
const MODEL_TURN_MS = FIRST_CHUNK_MS + (CHUNKS - 1) * CHUNK_MS;
// Every conversation always has a turn running (closed loop): what a server that kept up would do.
const OFFERED_TURNS_PER_SECOND = ((CONVERSATIONS + SAMPLED) * 1000) / MODEL_TURN_MS;
const turnsPerSecond = (load) =>
  (load.turnCheck.ok + load.turnCheck.failed + load.sampled.turnsDone) / load.loadSeconds;
const lost =
  counts.lost +
  counts.extra +
  counts.shortAnswers +
  Math.abs(counts.storedConversations - counts.conversations);
const ms = (value) => `${value.toFixed(2)} ms`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const { perEventMs } = cairn;
// The same measure on the bare Hono peer (its load ran in this run, after Cairn's), when it ran.
const onPeer = (pick, unit) =>
  bare === undefined ? {} : { peer: { name: 'bare Hono SSE', value: pick(bare), ...(unit ? { unit } : {}) } };
const figures = [
  {
    name: 'p99 server-added latency per SSE text event',
    value: perEventMs.p99,
    goal: P99_GOAL_MS,
    unit: 'ms',
    detail:
      `arrival at a sampling client − emit time written into the chunk by the model, ${perEventMs.events} events ` +
      `of ${cairn.sampled.conversations.length} sampled conversations during the load; p50 ${ms(perEventMs.p50)}, ` +
      `p90 ${ms(perEventMs.p90)}, max ${ms(perEventMs.max)}`,
    ...onPeer((load) => load.perEventMs.p99, 'ms'),
  },
  {
    name: 'errors',
    value: errors.total,
    goal: 0,
    detail:
      `autocannon errors ${errors.autocannonErrors}, timeouts ${errors.timeouts}, non-2xx ${errors.non2xx}, ` +
      `turns without a successful done ${errors.failedTurns}, sampler problems ${errors.samplerProblems}, ` +
      `errors logged by the server ${errors.serverLoggedErrors} (warnings ${cairn.logged.warn})` +
      (cairn.logged.samples[0] ? `; logged: ${cairn.logged.samples[0]}` : '') +
      (cairn.turnCheck.firstFailure ? `; first: ${cairn.turnCheck.firstFailure}` : '') +
      (cairn.sampled.problems[0] ? `; sampler: ${cairn.sampled.problems[0]}` : ''),
    ...onPeer((load) => loadErrors(load).total),
  },
  {
    name: 'lost (or extra) messages, counted in the store',
    value: lost,
    goal: 0,
    detail:
      `${counts.conversations - warmUpIds.length} conversations × ${TURNS} turns (+ ${warmUpIds.length} warm-up ` +
      `× ${WARM_UP.turns}): ${counts.found} of ${counts.expected} messages ` +
      `found (lost ${counts.lost}, extra ${counts.extra}, answers missing chunks ${counts.shortAnswers}); ` +
      `${counts.storedConversations} conversations in the store`,
  },
  {
    name: 'server heap per open idle /events stream',
    value: memory.heapBytesPerStream / 1024,
    unit: 'KiB',
    detail:
      `${memory.streams} streams; RSS ${kib(memory.rssBytesPerStream)}, external ${kib(memory.externalBytesPerStream)} ` +
      `a stream; heap ${memory.heapUsedMB.before.toFixed(1)} → ${memory.heapUsedMB.open.toFixed(1)} MB ` +
      `(${memory.heapUsedMB.closed.toFixed(1)} MB after closing them)`,
  },
  {
    name: 'same, from when the chunk was due, p99',
    value: cairn.sinceDueMs.p99,
    unit: 'ms',
    detail:
      `arrival − the time the model's timer was set to fire: adds the wait for a busy event loop (and ±1 ms of ` +
      `timer granularity); p50 ${ms(cairn.sinceDueMs.p50)}, max ${ms(cairn.sinceDueMs.max)}`,
    ...onPeer((load) => load.sinceDueMs.p99, 'ms'),
  },
  {
    name: 'autocannon requests/s',
    value: cairn.autocannon.requests.average,
    detail:
      `${cairn.autocannon.requests.total} requests (${CONVERSATIONS} conversations × (1 create + ${TURNS} turns)) ` +
      `in ${cairn.loadSeconds.toFixed(1)} s; ${turnsPerSecond(cairn).toFixed(0)} turns/s done (with the sampler's) ` +
      `of ~${OFFERED_TURNS_PER_SECOND.toFixed(0)}/s the model's pacing offers (${CHUNKS} chunks a turn, ` +
      `~${FIRST_CHUNK_MS} ms then ~${CHUNK_MS} ms apart)`,
  },
  {
    name: 'autocannon request latency p99 (a whole turn)',
    value: cairn.autocannon.latency.p99,
    unit: 'ms',
    detail:
      `p50 ${cairn.autocannon.latency.p50} ms, max ${cairn.autocannon.latency.max} ms; the model's pacing ` +
      `alone is ~${MODEL_TURN_MS} ms a turn; timed here: turns p50 ${ms(cairn.durationsMs.turn.p50)}, ` +
      `p99 ${ms(cairn.durationsMs.turn.p99)}, max ${ms(cairn.durationsMs.turn.max)}; creates p99 ` +
      `${ms(cairn.durationsMs.create.p99)}, max ${ms(cairn.durationsMs.create.max)}`,
    ...onPeer((load) => load.autocannon.latency.p99, 'ms'),
  },
  {
    name: 'turn end − last chunk emitted, p99 (all autocannon turns)',
    value: cairn.turnEndMs.p99,
    unit: 'ms',
    detail: `p50 ${ms(cairn.turnEndMs.p50)}; storing the answer, message + done events; read on autocannon's busy thread`,
    ...onPeer((load) => load.turnEndMs.p99, 'ms'),
  },
  {
    name: 'server event-loop delay p99 during the load',
    value: cairn.loop.loopDelayMs.p99,
    unit: 'ms',
    detail:
      `p50 ${ms(cairn.loop.loopDelayMs.p50)}, max ${ms(cairn.loop.loopDelayMs.max)} (beyond a 10 ms timer); ` +
      `server CPU ${cairn.loop.cpuPercent.toFixed(0)}% of one core`,
    ...onPeer((load) => load.loop.loopDelayMs.p99, 'ms'),
  },
];
if (bare !== undefined) {
  figures.push(
    {
      name: 'peer: bare Hono SSE, p99 latency per text event',
      value: bare.perEventMs.p99,
      unit: 'ms',
      detail:
        `same conversations at once (${PEER_TURNS} turns each), model and sampler; no runtime, store, ` +
        `validation or auth; ${bare.perEventMs.events} events; p50 ${ms(bare.perEventMs.p50)}, ` +
        `max ${ms(bare.perEventMs.max)}; from when due p99 ${ms(bare.sinceDueMs.p99)}; ` +
        `${turnsPerSecond(bare).toFixed(0)} turns/s; server CPU ` +
        `${bare.loop.cpuPercent.toFixed(0)}%; errors ${loadErrors(bare).total}`,
    },
    {
      name: 'Cairn ÷ bare Hono, p99 per-event latency',
      value: perEventMs.p99 / bare.perEventMs.p99,
      detail:
        `p50 ratio ${(perEventMs.p50 / bare.perEventMs.p50).toFixed(2)}; from when due: p99 ratio ` +
        `${(cairn.sinceDueMs.p99 / bare.sinceDueMs.p99).toFixed(2)}; server CPU ratio ` +
        `${(cairn.loop.cpuPercent / bare.loop.cpuPercent).toFixed(2)}`,
    },
  );
}
figures.push({
  name: 'clock offset server − sampler (corrected for)',
  value: cairn.clock.offsetMs,
  unit: 'ms',
  detail: `best IPC round trips ${ms(cairn.clock.serverRoundTripMs)} (server), ${ms(cairn.clock.samplerRoundTripMs)} (sampler)`,
});

const summary = (load) => ({
  perEventMs: load.perEventMs,
  sinceDueMs: load.sinceDueMs,
  turnEndMs: load.turnEndMs,
  requestsPerSecond: load.autocannon.requests.average,
  requests: load.autocannon.requests.total,
  latencyMs: {
    p50: load.autocannon.latency.p50,
    p99: load.autocannon.latency.p99,
    max: load.autocannon.latency.max,
  },
  requestDurationsMs: load.durationsMs,
  turnsPerSecond: turnsPerSecond(load),
  errors: loadErrors(load),
  logged: load.logged,
  loadSeconds: load.loadSeconds,
  server: load.loop,
  clock: load.clock,
  sampledConversations: load.sampled.conversations.length,
});
const ok = report(
  `@cairn/server: ${CONVERSATIONS} concurrent conversations × ${TURNS} streamed turns (autocannon, loopback)`,
  figures,
  {
    settings: {
      conversations: CONVERSATIONS,
      turns: TURNS,
      sampled: SAMPLED,
      idleStreams: IDLE_STREAMS,
      peerTurns: PEER ? PEER_TURNS : 0,
      warmUp: WARM_UP,
      model: MODEL,
    },
    store: describeStore(STORE),
    machine: { cpus: availableParallelism(), loadAverageBefore },
    cairn: summary(cairn),
    storeCounts: counts,
    memory,
    ...(bare === undefined ? {} : { bare: summary(bare) }),
  },
);
process.exitCode = ok ? 0 : 1;
