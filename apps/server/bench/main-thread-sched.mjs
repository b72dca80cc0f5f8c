// How the server's main thread fared with the OS scheduler over a phase (Linux's /proc; elsewhere
// nothing): its time on a core, its time ready to run but waiting for one, and how often it was taken
// off a core while it still had work (involuntary context switches). A main thread near a whole core,
// or often waiting for one, is what turns into event-loop delay for every stream.

import { readFileSync } from 'node:fs';

/** `schedstat` ("on-cpu ns, run-queue wait ns, timeslices") and `status` texts → the counters. */
export function parseSched(schedstat, status) {
  const [onCpuNs, waitNs] = schedstat.trim().split(/\s+/).map(Number);
  const preempted = Number(/^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1]);
  if (!Number.isFinite(onCpuNs) || !Number.isFinite(waitNs) || !Number.isFinite(preempted)) return undefined;
  return { onCpuNs, waitNs, preempted };
}

/** This process's main thread's counters now, or undefined where /proc does not have them. */
export function readMainThreadSched() {
  const task = `/proc/self/task/${process.pid}`;
  try {
    return parseSched(readFileSync(`${task}/schedstat`, 'utf8'), readFileSync(`${task}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The phase between two readings, `elapsedMs` long: shares of it, and preemptions a second. */
export function schedOverPhase(before, after, elapsedMs) {
  if (before === undefined || after === undefined || elapsedMs <= 0) return undefined;
  const share = (ns) => ns / 1e6 / elapsedMs;
  return {
    onCpuShare: share(after.onCpuNs - before.onCpuNs),
    waitShare: share(after.waitNs - before.waitNs),
    preemptedPerSecond: ((after.preempted - before.preempted) * 1000) / elapsedMs,
  };
}
