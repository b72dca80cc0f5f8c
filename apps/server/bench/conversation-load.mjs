// The load on one server, in two phases whose figures never mix:
// - Creates: `count` POST /v1/conversations in a burst (node:http, one connection each, all at
//   once), each timed from its connection's open to its answer's end.
// - Turns: one autocannon connection per created conversation sends `turns` × POST …/messages with
//   `Accept: text/event-stream`, each when the previous one's stream has ended (closed loop, no
//   think time), while a worker thread (sse-sampler.mjs) streams SAMPLED more conversations reading
//   each SSE event as it arrives. A turn counts as done on its successful `done` event; the stamps
//   the model writes into its text deltas (stamped-model.mjs) time it against the model's own
//   pacing. The server process's event-loop delay and CPU time are taken over this phase only.
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { clockOffset } from './server-process.mjs';
import { spread } from './spread.mjs';
import { readTurnStamps, wallClock } from './stamped-model.mjs';

// The `done` event's data line, whatever other lines (an id) the event carries.
const DONE_PATTERN = /(?:^|\n)event: done\n(?:[^\n]+\n)*?data: (\{[^\n]*\})/;
const endsDone = (body) => {
  const data = DONE_PATTERN.exec(body)?.[1];
  return data !== undefined && JSON.parse(data).success === true;
};

/**
 * `count` conversations created at once, each on a connection of its own; their ids in order, the
 * creates' durations and errors. A create is timed from its connection's open (when its request is
 * written) to its answer's end. Not autocannon: it stamps a connection's first request while it
 * builds its client, so each stamp also held the building of every client after it (~0.3–0.5 s of
 * a 1,000-create burst against a server that answers at once).
 */
export async function createBurst(server, apiToken, count) {
  const ids = [];
  const durations = [];
  let failed = 0;
  let firstFailure;
  const fail = (text) => {
    failed++;
    firstFailure ??= text;
  };
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const create = () =>
    new Promise((resolve) => {
      let sentAt = performance.now();
      const request = http.request(
        `${server.baseURL}/v1/conversations`,
        {
          method: 'POST',
          agent,
          timeout: 120_000,
          headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (text) => (body += text));
          response.on('end', () => {
            durations.push(performance.now() - sentAt);
            if (response.statusCode === 201) ids.push(JSON.parse(body).id);
            else fail(`HTTP ${response.statusCode}: ${body.slice(0, 300)}`);
            resolve();
          });
        },
      );
      request.once('socket', (socket) => socket.once('connect', () => (sentAt = performance.now())));
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error) => {
        fail(error.message);
        resolve();
      });
      request.end('{}');
    });
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, create));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    ids,
    count,
    seconds,
    perSecond: count / seconds,
    durationsMs: spread(durations),
    errors: failed,
    firstFailure,
  };
}

/**
 * One autocannon connection per id, `turns` streamed turns each after an untimed GET /healthz. `clockOffset`: the server's clock −
 * this thread's, to read the model's stamps on this thread's clock.
 */
export async function turnLoad(server, apiToken, { ids, turns, clockOffset = 0 }) {
  const headers = {
    authorization: `Bearer ${apiToken}`,
    'content-type': 'application/json',
    accept: 'text/event-stream',
  };
  const check = { ok: 0, failed: 0, firstFailure: undefined };
  const timing = { turn: [], pacing: [], overhead: [], beforeModel: [], modelLate: [], afterLastChunk: [] };
  let next = 0;
  const onResponse = (status, body, context) => {
    const ended = wallClock();
    if (status !== 200 || !endsDone(body)) {
      check.failed++;
      check.firstFailure ??= `HTTP ${status}: ${body.slice(-300)}`;
      return;
    }
    check.ok++;
    const { call, lastEmit, pacedMs } = readTurnStamps(body);
    if (call === undefined || lastEmit === undefined || pacedMs === undefined) {
      check.failed++;
      check.firstFailure ??= `a turn without the model's stamps: ${body.slice(-300)}`;
      return;
    }
    // Whole turn = before the model was called + the model's time + after its last chunk, and the
    // model's time = its own pacing + its timers firing late (a busy event loop).
    const turnMs = ended - context.sentAt;
    timing.turn.push(turnMs);
    timing.pacing.push(pacedMs);
    timing.overhead.push(turnMs - pacedMs);
    timing.beforeModel.push(call - clockOffset - context.sentAt);
    timing.modelLate.push(lastEmit - call - pacedMs);
    timing.afterLastChunk.push(ended - (lastEmit - clockOffset));
  };
  const result = await autocannon({
    url: server.baseURL,
    connections: ids.length,
    // autocannon gives each connection amount ÷ connections requests: exactly `turns` + 1 each, so a
    // connection never wraps around to a new conversation.
    amount: ids.length * (turns + 1),
    // A turn's stream may take long under load; a timeout would make autocannon reconnect and
    // move on to the next request, breaking the conversation's sequence.
    timeout: 120,
    requests: [
      // Untimed: autocannon builds a connection's first request, and so runs its setupRequest, while
      // it builds every client, ~0.2–0.4 s before the request goes out for 1,000 connections.
      { method: 'GET', path: '/healthz' },
      ...Array.from({ length: turns }, (_, turn) => ({
        method: 'POST',
        headers,
        setupRequest(request, context) {
          context.id ??= ids[next++];
          context.sentAt = wallClock();
          return {
            ...request,
            path: `/v1/conversations/${context.id}/messages`,
            body: JSON.stringify({ content: `turn ${turn + 1}: hello` }),
          };
        },
        onResponse,
      })),
    ],
  });
  const sum = (values) => values.reduce((total, value) => total + value, 0);
  return {
    autocannon: result,
    check,
    // Closed-loop conversations go as fast as their turns end: the rate achieved ÷ the rate the
    // model's pacing offers is the model's time ÷ the whole turns' time.
    offeredShare: sum(timing.pacing) / sum(timing.turn),
    timingMs: Object.fromEntries(Object.entries(timing).map(([name, values]) => [name, spread(values)])),
  };
}

/** A fresh server compiles its code paths on the first turns: some are run before measuring. */
export async function warmUp(server, apiToken, { conversations, turns }) {
  const creates = await createBurst(server, apiToken, conversations);
  const load = await turnLoad(server, apiToken, { ids: creates.ids, turns });
  const failures =
    creates.errors +
    load.autocannon.errors +
    load.autocannon.timeouts +
    load.autocannon.non2xx +
    load.check.failed;
  if (failures > 0) {
    throw new Error(
      `warm-up failed: ${failures} errors; ${creates.firstFailure ?? load.check.firstFailure ?? ''}`,
    );
  }
  return creates.ids;
}

/**
 * The turn phase: `ids` through autocannon, `samplerIds` through the sampler, `turns` each.
 * `profileFile`: also a CPU profile of the server over the phase, written there.
 */
export async function turnPhase(server, apiToken, { ids, samplerIds, turns, profileFile }) {
  const sampler = new Worker(new URL('./sse-sampler.mjs', import.meta.url), {
    workerData: { baseURL: server.baseURL, apiToken, conversationIds: samplerIds, turns },
  });
  try {
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

    if (profileFile !== undefined) await server.ask('profile-start');
    await server.ask('loop-start');
    sampler.postMessage('start');
    const started = performance.now();
    const [load, sampled] = await Promise.all([
      turnLoad(server, apiToken, { ids, turns, clockOffset: serverOffset.offset }),
      samplerResult,
    ]);
    const seconds = (performance.now() - started) / 1000;
    const loop = await server.ask('loop-stop');
    if (profileFile !== undefined) await server.ask('profile-stop', { file: profileFile });
    const { logged } = await server.ask('log');

    // measured = arrival (sampler clock) − emit (server clock) = true latency − offset.
    const corrected = (values) => Array.from(values, (latency) => latency + offset);
    const turnsDone = load.check.ok + load.check.failed + sampled.turnsDone;
    const errors = {
      autocannonErrors: load.autocannon.errors,
      timeouts: load.autocannon.timeouts,
      non2xx: load.autocannon.non2xx,
      failedTurns: load.check.failed,
      samplerProblems: sampled.problems.length,
      serverLoggedErrors: logged.error,
    };
    return {
      turns,
      seconds,
      turnsDone,
      turnsPerSecond: turnsDone / seconds,
      cpuMsPerTurn: loop.cpuMs / turnsDone,
      server: loop,
      timingMs: load.timingMs,
      offeredShare: load.offeredShare,
      perEventMs: { ...spread(corrected(sampled.latencies)), events: sampled.latencies.length },
      sinceDueMs: spread(corrected(sampled.sinceDue)),
      errors: { ...errors, total: Object.values(errors).reduce((sum, value) => sum + value, 0) },
      firstFailure: load.check.firstFailure ?? sampled.problems[0] ?? logged.samples[0],
      logged,
      clock: {
        offsetMs: offset,
        serverRoundTripMs: serverOffset.roundTrip,
        samplerRoundTripMs: samplerOffset.roundTrip,
      },
    };
  } finally {
    await sampler.terminate();
  }
}
