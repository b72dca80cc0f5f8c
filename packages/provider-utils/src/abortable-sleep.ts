import { CairnError } from '@cairn/core';

/** Waits `ms`; an abort ends the wait early with `LLM_ABORTED`. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal));
      return;
    }
    // No wait asked: no timer either, so a zero delay costs no trip through the event loop.
    if (!(ms > 0)) {
      resolve();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error for a request whose signal fired. */
export function abortedError(signal?: AbortSignal): CairnError {
  return new CairnError('LLM_ABORTED', 'the request was aborted', {
    ...(signal?.reason === undefined ? {} : { cause: signal.reason }),
  });
}
