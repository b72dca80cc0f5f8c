/** The signal one attempt of a request runs under, and whether its own time limit ended it. */
export interface AttemptSignal {
  signal: AbortSignal | undefined;
  timedOut(): boolean;
}

/**
 * A signal of its own for one attempt: the caller's signal plus, when set, a time limit. SDKs add
 * an abort listener they never remove to whatever signal they are given, so passing the caller's
 * (long-lived, shared) signal to each call would pile listeners onto it. `AbortSignal.timeout`
 * keeps no process alive, unlike an SDK timer that is never cleared.
 */
export function createAttemptSignal(signal: AbortSignal | undefined, timeoutMs?: number): AttemptSignal {
  const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const sources = [signal, timeout].filter((each) => each !== undefined);
  return {
    signal: sources.length === 0 ? undefined : AbortSignal.any(sources),
    timedOut: () => timeout?.aborted === true,
  };
}
