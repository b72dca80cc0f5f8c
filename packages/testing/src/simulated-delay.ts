import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A delay that is itself the behaviour under test (a slow model, a slow reader, a tool that takes a
 * while) — never a wait for something else to happen: tests wait on gates, events or `expect.poll`.
 */
export function simulatedDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, undefined, signal === undefined ? undefined : { signal });
}
