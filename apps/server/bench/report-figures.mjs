// The bench's table rows (figures for @cairn/bench's report) and JSON summary from the scenarios'
// results: the goals first (main ÷ baseline), then each scenario's creates, CPU per turn,
// whole turn against the model's pacing and per-event latency, then the CPU breakdown.

import { lostMessages } from './count-store.mjs';
import { CATEGORIES } from './cpu-categories.mjs';

const GOALS = {
  cpuPerTurnRatio: 1.5,
  turnEndRatio: 2,
  loopDelayRatio: 1.5,
  createsP99Ms: 1000,
  // Turns done ÷ offered by the model's pacing, on the --workers scenario.
  offeredShare: 0.9,
  // Server-added latency of a text event (the streaming issue's goal).
  perEventP99Ms: 5,
};

const ms = (value) => `${value.toFixed(2)} ms`;
const percent = (share) => `${(share * 100).toFixed(0)}%`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const spreadText = ({ mean, p50, p99 }) => `mean ${ms(mean)}, p50 ${ms(p50)}, p99 ${ms(p99)}`;
// A single server process's own view of the phase (the cluster's workers report neither).
const storeAndGcText = ({ server, seconds }) =>
  (server.answerAppendMs === undefined ? '' : `; storing the answer ${spreadText(server.answerAppendMs)}`) +
  (server.gcPauseMs === undefined
    ? ''
    : `; GC pauses ${server.gcPauseMs.count}, ${spreadText(server.gcPauseMs)}, max ` +
      `${ms(server.gcPauseMs.max)}: ${((server.gcPauseMs.totalMs / (seconds * 1000)) * 100).toFixed(1)}% of the phase`) +
  (server.mainThread === undefined
    ? ''
    : `; main thread on a core ${percent(server.mainThread.onCpuShare)} of the phase, ready but waiting for ` +
      `one ${percent(server.mainThread.waitShare)}, taken off one ${server.mainThread.preemptedPerSecond.toFixed(0)}×/s`);

/** `results`: run.mjs's runs with runScenario's results; returns `{ figures, summary }`. */
export function reportFigures(results, { model, offeredTurnsPerSecond, runSeconds }) {
  const main = results.find(({ role }) => role === 'main');
  const baseline = results.find(({ role }) => role === 'baseline');
  const breakdown = results.find(({ role }) => role === 'breakdown');
  // The issue sets the create and throughput goals on the --workers server; without it, on main.
  const cluster = results.find(({ role }) => role === 'workers');
  const measured = results.filter(({ role }) => role !== 'breakdown');
  const name = (result) => result.scenario.name;
  const onPeer = (pick, unit) =>
    baseline === undefined
      ? {}
      : { peer: { name: name(baseline), value: pick(baseline.turnPhase), ...(unit ? { unit } : {}) } };
  const figures = [];

  // ---- The goals ----
  if (baseline !== undefined) {
    const ratio = (pick) => pick(main.turnPhase) / pick(baseline.turnPhase);
    const cpu = (phase) => phase.cpuMsPerTurn;
    const turnEnd = (phase) => phase.timingMs.afterLastChunk.p99;
    const loopDelay = (phase) => phase.server.loopDelayMs.p99;
    figures.push(
      {
        name: `CPU per turn, ${name(main)} ÷ ${name(baseline)}`,
        value: ratio(cpu),
        goal: GOALS.cpuPerTurnRatio,
        detail: `${ms(cpu(main.turnPhase))} ÷ ${ms(cpu(baseline.turnPhase))} of server-process CPU a turn`,
      },
      {
        name: `turn end − last chunk p99, ${name(main)} ÷ ${name(baseline)}`,
        value: ratio(turnEnd),
        goal: GOALS.turnEndRatio,
        detail: `${ms(turnEnd(main.turnPhase))} ÷ ${ms(turnEnd(baseline.turnPhase))}`,
      },
      {
        name: `event-loop delay p99, ${name(main)} ÷ ${name(baseline)}`,
        value: ratio(loopDelay),
        goal: GOALS.loopDelayRatio,
        detail: `${ms(loopDelay(main.turnPhase))} ÷ ${ms(loopDelay(baseline.turnPhase))} (beyond a 10 ms timer)`,
      },
    );
  }
  figures.push(
    ...(cluster === undefined
      ? [
          {
            name: `creates p99, ${name(main)}`,
            value: main.creates.durationsMs.p99,
            unit: 'ms',
            goal: GOALS.createsP99Ms,
            detail: `${main.creates.count} creates in one burst, before the turns (the issue sets this goal on the --workers server, not run)`,
          },
        ]
      : [
          {
            name: `creates p99, ${name(cluster)}`,
            value: cluster.creates.durationsMs.p99,
            unit: 'ms',
            goal: GOALS.createsP99Ms,
            detail: `${cluster.creates.count} creates in one burst, before the turns`,
          },
          {
            name: `turn rate ÷ what the model offers, ${name(cluster)}`,
            value: cluster.turnPhase.offeredShare,
            goalAtLeast: GOALS.offeredShare,
            detail:
              `the model's pacing ÷ the whole turns' time, summed over ${cluster.turnPhase.turnsDone} turns ` +
              `(${cluster.turns} a conversation, each sent when the last ended): ` +
              `${cluster.turnPhase.turnsPerSecond.toFixed(0)} turns/s done; ${cluster.turnPhase.server.workers} workers ` +
              `at ${cluster.turnPhase.server.cpuPercent.toFixed(0)}% of a core in all`,
          },
        ]),
    {
      name: `p99 server-added latency per SSE text event, ${name(main)}`,
      value: main.turnPhase.perEventMs.p99,
      unit: 'ms',
      goal: GOALS.perEventP99Ms,
      detail:
        `arrival at the sampler − emit time in the chunk, ${main.turnPhase.perEventMs.events} events; ` +
        `p50 ${ms(main.turnPhase.perEventMs.p50)}, max ${ms(main.turnPhase.perEventMs.max)}`,
      ...onPeer((phase) => phase.perEventMs.p99, 'ms'),
    },
    {
      name: 'errors, every scenario',
      value: results.reduce((sum, result) => sum + result.turnPhase.errors.total + result.creates.errors, 0),
      goal: 0,
      detail: results
        .map(({ scenario, creates, turnPhase }) => {
          const { errors } = turnPhase;
          const first = creates.firstFailure ?? turnPhase.firstFailure;
          return (
            `${scenario.name}: creates ${creates.errors}, autocannon ${errors.autocannonErrors}, timeouts ` +
            `${errors.timeouts}, non-2xx ${errors.non2xx}, turns without a done ${errors.failedTurns}, sampler ` +
            `${errors.samplerProblems}, logged ${errors.serverLoggedErrors} (warnings ${turnPhase.logged.warn})` +
            (first ? ` [${first}]` : '')
          );
        })
        .join('; '),
    },
    {
      name: 'lost (or extra) messages, every Cairn scenario',
      value: results.reduce((sum, { counts }) => sum + (counts === undefined ? 0 : lostMessages(counts)), 0),
      goal: 0,
      detail: results
        .filter(({ counts }) => counts !== undefined)
        .map(
          ({ scenario, counts }) =>
            `${scenario.name}: ${counts.found} of ${counts.expected} messages in ${counts.conversations} ` +
            `conversations (lost ${counts.lost}, extra ${counts.extra}, answers missing chunks ` +
            `${counts.shortAnswers}), ${counts.storedConversations} conversations in the store`,
        )
        .join('; '),
    },
  );

  // ---- Each scenario ----
  for (const result of measured) {
    const { creates, turnPhase: phase } = result;
    const { timingMs } = phase;
    figures.push(
      {
        name: `${name(result)}: creates p99`,
        value: creates.durationsMs.p99,
        unit: 'ms',
        detail:
          `${creates.count} in one burst: ${creates.perSecond.toFixed(0)} creates/s, p50 ` +
          `${ms(creates.durationsMs.p50)}, max ${ms(creates.durationsMs.max)}`,
      },
      {
        name: `${name(result)}: CPU per turn`,
        value: phase.cpuMsPerTurn,
        unit: 'ms',
        detail:
          `${phase.turnsDone} turns (${result.turns} a conversation) in ${phase.seconds.toFixed(1)} s: ` +
          `${phase.turnsPerSecond.toFixed(0)} turns/s (~${offeredTurnsPerSecond.toFixed(0)}/s offered; ` +
          `${(phase.offeredShare * 100).toFixed(0)}% of the model's pace in each conversation), server ` +
          `${phase.server.cpuPercent.toFixed(0)}% of a core` +
          (baseline === undefined || result === baseline
            ? ''
            : `; ÷ peer ${(phase.cpuMsPerTurn / baseline.turnPhase.cpuMsPerTurn).toFixed(2)}`),
        ...(result === baseline ? {} : onPeer((peerPhase) => peerPhase.cpuMsPerTurn, 'ms')),
      },
      {
        name: `${name(result)}: whole turn − model's pacing, p99`,
        value: timingMs.overhead.p99,
        unit: 'ms',
        detail:
          `turn ${spreadText(timingMs.turn)} against the model's pacing ${spreadText(timingMs.pacing)}; added: ` +
          `${spreadText(timingMs.overhead)} = before the model call ${spreadText(timingMs.beforeModel)} + its ` +
          `timers late ${spreadText(timingMs.modelLate)} + turn end − last chunk ${spreadText(timingMs.afterLastChunk)}; ` +
          `event-loop delay p99 ${ms(phase.server.loopDelayMs.p99)}, max ${ms(phase.server.loopDelayMs.max)}` +
          storeAndGcText(phase),
        ...(result === baseline ? {} : onPeer((peerPhase) => peerPhase.timingMs.overhead.p99, 'ms')),
      },
      {
        name: `${name(result)}: per SSE text event p99`,
        value: phase.perEventMs.p99,
        unit: 'ms',
        detail:
          `p50 ${ms(phase.perEventMs.p50)}; from when due ${spreadText(phase.sinceDueMs)}; ` +
          `${phase.perEventMs.events} events`,
      },
    );
  }
  if (main.memory !== undefined) {
    const { memory } = main;
    figures.push({
      name: `${name(main)}: heap per open idle /events stream`,
      value: memory.heapBytesPerStream / 1024,
      unit: 'KiB',
      detail:
        `${memory.streams} streams; RSS ${kib(memory.rssBytesPerStream)}, external ${kib(memory.externalBytesPerStream)} ` +
        `a stream; heap ${memory.heapUsedMB.before.toFixed(1)} → ${memory.heapUsedMB.open.toFixed(1)} MB ` +
        `(${memory.heapUsedMB.closed.toFixed(1)} MB after closing them)`,
    });
  }

  // ---- Where a turn's CPU goes ----
  let breakdownSummary;
  if (breakdown !== undefined) {
    const { selfMs, busyMs, totalMs } = breakdown.breakdown;
    const turns = breakdown.turnPhase.turnsDone;
    const context =
      `${name(breakdown)} profiled, ${turns} turns (${breakdown.turns} a conversation) in ` +
      `${breakdown.turnPhase.seconds.toFixed(1)} s`;
    figures.push({
      name: 'CPU breakdown: main thread busy per turn',
      value: busyMs / turns,
      unit: 'ms',
      detail:
        `${context}: V8's samples of the main thread, not idle (wall time: a blocking syscall such as a ` +
        `synchronous fdatasync counts, as does waiting for a core on a busy machine); the process's CPU ` +
        `time a turn, all threads, was ${ms(breakdown.turnPhase.cpuMsPerTurn)} with the profiler on; ` +
        `idle ${((selfMs.idle / totalMs) * 100).toFixed(0)}% of the phase`,
    });
    for (const category of CATEGORIES) {
      if (category === 'idle' || selfMs[category] === 0) continue;
      figures.push({
        name: `CPU breakdown: ${category}`,
        value: selfMs[category] / turns,
        unit: 'ms',
        detail: `${((selfMs[category] / busyMs) * 100).toFixed(1)}% of the main thread's busy time`,
      });
    }
    breakdownSummary = {
      scenario: name(breakdown),
      turns,
      msPerTurn: Object.fromEntries(CATEGORIES.map((category) => [category, selfMs[category] / turns])),
      busyMsPerTurn: busyMs / turns,
    };
  }
  figures.push(
    {
      name: 'clock offset server − sampler (corrected for)',
      value: main.turnPhase.clock.offsetMs,
      unit: 'ms',
      detail:
        `${name(main)}: best IPC round trips ${ms(main.turnPhase.clock.serverRoundTripMs)} (server), ` +
        `${ms(main.turnPhase.clock.samplerRoundTripMs)} (sampler)`,
    },
    {
      name: 'bench run time',
      value: runSeconds / 60,
      unit: 'min',
      detail: `${results.length} server processes; model: ${model.chunks} chunks a turn, ~${model.firstChunkMs} ms then ~${model.chunkMs} ms apart`,
    },
  );

  const summary = {
    scenarios: results.map(({ role, scenario, turns, creates, turnPhase, counts, memory }) => ({
      name: scenario.name,
      role,
      description: scenario.description,
      turns,
      creates: { count: creates.count, perSecond: creates.perSecond, durationsMs: creates.durationsMs },
      turnPhase: {
        turnsDone: turnPhase.turnsDone,
        seconds: turnPhase.seconds,
        turnsPerSecond: turnPhase.turnsPerSecond,
        offeredShare: turnPhase.offeredShare,
        cpuMsPerTurn: turnPhase.cpuMsPerTurn,
        server: turnPhase.server,
        timingMs: turnPhase.timingMs,
        perEventMs: turnPhase.perEventMs,
        sinceDueMs: turnPhase.sinceDueMs,
        errors: turnPhase.errors,
        logged: turnPhase.logged,
        clock: turnPhase.clock,
      },
      ...(counts === undefined ? {} : { storeCounts: counts }),
      ...(memory === undefined ? {} : { memory }),
    })),
    ...(breakdownSummary === undefined ? {} : { breakdown: breakdownSummary }),
  };
  return { figures, summary };
}
