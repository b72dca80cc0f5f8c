import { type AgentOutput, CairnError, definedFields, type ModelResult, type ModelStream } from '@cairn/core';
import { classifyError } from './classify-error.js';
import { createResultAssembler } from './result-assembler.js';
import type { StreamSink } from './stream-sink.js';

/**
 * Reads one provider stream, reporting what it sees to `sink`, and returns when the provider's
 * stream has ended. It should pass `signal` to the SDK call; throwing fails the stream.
 */
export type ModelStreamRun = (sink: StreamSink, signal: AbortSignal) => Promise<void>;

export interface ModelStreamOptions {
  /** Names the provider in classified errors. */
  provider: string;
  /** The request's signal: aborting it ends the stream with `finish` `aborted`. */
  signal?: AbortSignal;
  /** The clock behind every event's `timestamp` (default: the system clock). */
  now?: () => Date;
}

/**
 * The stream machinery every adapter uses: starts `run` at once and turns what it reports into
 * `AgentOutput` events (every block closed, exactly one `finish`, last) and the `ModelResult`.
 * Failures (a throw from `run`, an abort, a stream that ends without a finish reason) become a
 * fatal `error` event then `finish` `error`/`aborted`, and `result` rejects with the `CairnError`.
 * Iterating never throws; a consumer that stops iterating early aborts the call.
 */
export function createModelStream(run: ModelStreamRun, options: ModelStreamOptions): ModelStream {
  const events: AgentOutput[] = [];
  let ended = false;
  let wakeReaders: Array<() => void> = [];
  const wake = () => {
    const readers = wakeReaders;
    wakeReaders = [];
    for (const reader of readers) reader();
  };
  const stopByConsumer = new AbortController();
  const signal =
    options.signal === undefined
      ? stopByConsumer.signal
      : AbortSignal.any([options.signal, stopByConsumer.signal]);
  const assembler = createResultAssembler({
    ...definedFields({ now: options.now }),
    source: options.provider,
    onEvent: (event) => {
      events.push(event);
      if (event.type === 'finish') ended = true;
      wake();
    },
  });

  const result = new Promise<ModelResult>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (ended) return;
      const classified = classifyError(error, { provider: options.provider, signal });
      assembler.fail(classified);
      signal.removeEventListener('abort', onAbort);
      reject(classified);
    };
    // Settle at once on abort: an SDK may take its time to notice, and the caller must not wait.
    const onAbort = () => fail(signal.reason);
    if (signal.aborted) {
      fail(signal.reason);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => run(assembler, signal))
      .then(() => {
        if (ended) return;
        if (assembler.finishReason === undefined) {
          fail(
            new CairnError(
              'LLM_UNAVAILABLE',
              `${options.provider}: the stream ended before the response finished`,
              {
                details: { provider: options.provider },
              },
            ),
          );
          return;
        }
        const completed = assembler.complete();
        signal.removeEventListener('abort', onAbort);
        resolve(completed);
      })
      .catch(fail);
  });
  // Callers that only iterate never look at `result`; its rejection is reported as events.
  result.catch(() => undefined);

  return {
    result,
    [Symbol.asyncIterator](): AsyncIterator<AgentOutput> {
      let index = 0;
      return {
        async next() {
          while (index >= events.length && !ended)
            await new Promise<void>((resolve) => wakeReaders.push(resolve));
          const event = events[index++];
          return event === undefined ? { done: true, value: undefined } : { done: false, value: event };
        },
        async return() {
          index = Number.POSITIVE_INFINITY;
          if (!ended) stopByConsumer.abort();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
