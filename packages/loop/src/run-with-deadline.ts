import { CairnError } from '@cairn/core';

/** How a tool call ended when it did not return: its own time ran out, or the caller cancelled. */
export type StopReason = 'timeout' | 'aborted';

export class ToolCallStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(reason === 'timeout' ? 'the tool ran out of time' : 'the tool call was cancelled');
  }
}

/**
 * Runs `run(signal)`, settling as soon as it returns, `timeoutMs` passes, or `parent` aborts —
 * whichever is first; the signal handed to `run` is aborted in the last two cases, so a tool that
 * honours it stops. Listeners and timers are removed when it settles: a long-lived caller signal
 * shared by thousands of calls gains nothing from any of them.
 */
export async function runWithDeadline<T>(
  run: (signal: AbortSignal) => Promise<T> | T,
  timeoutMs: number | undefined,
  parent: AbortSignal | undefined,
): Promise<T> {
  // A call cancelled before it starts never runs.
  if (parent?.aborted) throw new ToolCallStopped('aborted');
  const controller = new AbortController();
  let stop!: (reason: StopReason) => void;
  const stopped = new Promise<never>((_resolve, reject) => {
    stop = (reason) => {
      reject(new ToolCallStopped(reason));
      controller.abort(
        reason === 'timeout'
          ? new CairnError('TOOL_TIMEOUT', `no result after ${timeoutMs} ms`)
          : (parent?.reason ?? new CairnError('LLM_ABORTED', 'the tool call was cancelled')),
      );
    };
  });
  // Rejections of `stopped` are handled by the race below; this keeps a late one quiet.
  stopped.catch(() => {});
  const onAbort = () => stop('aborted');
  parent?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs === undefined || !Number.isFinite(timeoutMs)
      ? undefined
      : setTimeout(() => stop('timeout'), Math.min(timeoutMs, 2 ** 31 - 1));
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    parent?.removeEventListener('abort', onAbort);
  }
}
