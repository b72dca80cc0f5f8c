import { describe, expect, it } from 'vitest';
import { parseSched, readMainThreadSched, schedOverPhase } from './main-thread-sched.mjs';

describe("the main thread's scheduling", () => {
  it('reads the on-core time, the run-queue wait and the involuntary switches of /proc texts', () => {
    const status = 'Name:\tnode\nvoluntary_ctxt_switches:\t943\nnonvoluntary_ctxt_switches:\t59\n';
    expect(parseSched('498762584 38416911 1002\n', status)).toEqual({
      onCpuNs: 498762584,
      waitNs: 38416911,
      preempted: 59,
    });
    expect(parseSched('garbage', status)).toBeUndefined();
    expect(parseSched('1 2 3', 'no switches here')).toBeUndefined();
  });

  it('gives shares of the phase and preemptions a second between two readings', () => {
    const before = { onCpuNs: 1e9, waitNs: 2e8, preempted: 100 };
    const after = { onCpuNs: 1.8e9, waitNs: 3e8, preempted: 350 };
    expect(schedOverPhase(before, after, 1000)).toEqual({
      onCpuShare: 0.8,
      waitShare: 0.1,
      preemptedPerSecond: 250,
    });
    expect(schedOverPhase(undefined, after, 1000)).toBeUndefined();
  });

  it('reads this process where /proc has it, and counts its own work', () => {
    const before = readMainThreadSched();
    if (before === undefined) return;
    const until = performance.now() + 20;
    while (performance.now() < until);
    const after = readMainThreadSched();
    expect(after?.onCpuNs).toBeGreaterThan(before.onCpuNs);
  });
});
