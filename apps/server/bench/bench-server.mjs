// The server side of the bench, run by run.mjs in its own process (node --expose-gc, IPC), so the
// load generator never shares its event loop. `cairn` mode: createServerApp from ../dist over the
// store run.mjs picked (open-store.mjs; by default the fs store, the server's default, with its
// default durability) in the given directory, createAgentRuntime with compression off and the
// stamped scripted model. `bare` mode: the peer baseline — a bare Hono app on the same
// @hono/node-server streaming the same model's events as SSE, with no runtime, store, validation,
// auth or middleware.
//
// IPC, answered as `{ id, ...answer }` for a request `{ id, type, payload? }`: `clock` (this
// process's wall clock), `memory` (process.memoryUsage() after forced GCs), `loop-start` /
// `loop-stop` (event-loop delay, this process's CPU time, its GC pauses and Cairn's answer appends in
// between), `profile-start` /
// `profile-stop` (a V8 CPU profile of just that window, written to `payload.file`), `count`
// (count-store.mjs on the memory store, which dies with this process), `log` (warnings and errors
// logged so far), `close`. Ready is `{ type: 'ready', port }`.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createAgentRuntime } from '@cairn/runtime';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { seededRandom } from '../../../tooling/bench/index.js';
import { createInProcessEventBus, createInProcessTurnLock, createServerApp } from '../dist/index.js';
import { countStore } from './count-store.mjs';
import { readMainThreadSched, schedOverPhase } from './main-thread-sched.mjs';
import { openStore } from './open-store.mjs';
import { spread } from './spread.mjs';
import { createStampedModel, wallClock } from './stamped-model.mjs';

const config = JSON.parse(process.argv[2]);
const gc = globalThis.gc;
if (gc === undefined) throw new Error('bench-server.mjs needs node --expose-gc');

const model = createStampedModel({ ...config.model, random: seededRandom(config.seed) });
// What the server and the runtime log at warn or error level (info is one line per request).
const logged = { warn: 0, error: 0, samples: [] };
const note = (level) => (fields, message) => {
  logged[level]++;
  if (logged.samples.length < 5) logged.samples.push(`${level}: ${message ?? ''} ${JSON.stringify(fields)}`);
};
const logger = { debug() {}, info() {}, warn: note('warn'), error: note('error') };
let fetchHandler;
let closeApp = async () => {};
let cairnStore;

// Samples of the turn phase (between loop-start and loop-stop): the main thread's GC pauses (a pause
// holds every stream alike), and Cairn's answer appends (the store's part of turn end − last chunk:
// on a persistent store, an answer is durable before the turn ends).
let gcPauseMs;
let answerAppendMs;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauseMs?.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

/** The store, its answer appends timed (every other property as it is, methods bound to it). */
function timingAnswerAppends(store) {
  const append = async (conversationId, messages, options) => {
    const started = performance.now();
    try {
      return await store.append(conversationId, messages, options);
    } finally {
      if (messages.some((message) => message.role === 'assistant'))
        answerAppendMs?.push(performance.now() - started);
    }
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

if (config.mode === 'cairn') {
  cairnStore = openStore(config.store, config.storeDir);
  const store = timingAnswerAppends(cairnStore);
  const events = createInProcessEventBus();
  const turnLock = createInProcessTurnLock();
  const handle = createServerApp({
    store,
    runtime: createAgentRuntime({ store, model, settings: { compression: false }, logger }),
    events,
    turnLock,
    apiToken: config.apiToken,
    maxConcurrentTurns: config.maxConcurrentTurns,
    logger,
    ...config.extraAppOptions,
  });
  fetchHandler = handle.app.fetch;
  closeApp = async () => {
    handle.abortAll('bench finished');
    while (handle.activeTurns() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([events.close(), turnLock.close(), store.close()]);
  };
} else {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.post('/v1/conversations', (c) => c.json({ id: `c-${randomUUID()}` }, 201));
  app.post('/v1/conversations/:id/messages', async (c) => {
    const { content } = await c.req.json();
    return streamSSE(c, async (stream) => {
      const events = model.stream({ messages: [{ role: 'user', content }] });
      for await (const event of events) {
        await stream.writeSSE({ event: 'agent_output', data: JSON.stringify(event) });
      }
      await stream.writeSSE({ event: 'done', data: JSON.stringify({ success: true }) });
    });
  });
  fetchHandler = app.fetch;
}

// serve() listens with Node's default backlog of 511: 1,000 clients connecting at once overflow it,
// and the refused ones retry after 1, 3, 7, 15… s, which would be measured as turn latency.
const server = createAdaptorServer({ fetch: fetchHandler });
await new Promise((resolve) => server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, resolve));

const LOOP_RESOLUTION_MS = 10;
let loop;
let cpuStart;
let schedStart;
let timeStart;
let profiler;
const answers = {
  clock: () => ({ now: wallClock() }),
  log: () => ({ logged }),
  memory: () => {
    gc();
    gc();
    return { memory: process.memoryUsage() };
  },
  'loop-start': () => {
    loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loop.enable();
    gcPauseMs = [];
    answerAppendMs = config.mode === 'cairn' ? [] : undefined;
    cpuStart = process.cpuUsage();
    schedStart = readMainThreadSched();
    timeStart = performance.now();
    return {};
  },
  'loop-stop': () => {
    loop.disable();
    const cpu = process.cpuUsage(cpuStart);
    const elapsedMs = performance.now() - timeStart;
    const mainThread = schedOverPhase(schedStart, readMainThreadSched(), elapsedMs);
    // The histogram holds whole timer intervals: the delay is what exceeds the resolution.
    const ms = (nanoseconds) => Math.max(0, nanoseconds / 1e6 - LOOP_RESOLUTION_MS);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const pauses = gcPauseMs;
    const answers = answerAppendMs;
    gcPauseMs = undefined;
    answerAppendMs = undefined;
    return {
      loopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
      cpuMs,
      cpuPercent: (cpuMs / elapsedMs) * 100,
      gcPauseMs: {
        count: pauses.length,
        totalMs: pauses.reduce((sum, pause) => sum + pause, 0),
        ...spread(pauses),
      },
      ...(answers === undefined ? {} : { answerAppendMs: spread(answers) }),
      ...(mainThread === undefined ? {} : { mainThread }),
    };
  },
  // In-process rather than --cpu-prof: the profile then covers the turn phase only, not start-up,
  // warm-up or the create burst.
  'profile-start': async () => {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    return {};
  },
  'profile-stop': async ({ file }) => {
    const { profile } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    await writeFile(file, JSON.stringify(profile));
    return {};
  },
  count: async ({ groups, chunks }) => ({ counts: await countStore(cairnStore, groups, chunks) }),
  close: async () => {
    await new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await closeApp();
    return {};
  },
};

process.on('message', async ({ id, type, payload }) => {
  const answer = await answers[type](payload);
  process.send({ id, ...answer }, () => {
    if (type === 'close') process.exit(0);
  });
});
// The bench went away without closing this server: nothing else will.
process.once('disconnect', () => process.exit(1));
process.send({ type: 'ready', port: server.address().port });
