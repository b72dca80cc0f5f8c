import type { OpenAIToolCall, ToolCallResult } from '@cairn/core';

/**
 * Runs the calls of one assistant message, at most `concurrency` at a time, and hands each result
 * to `onResult` in call order as soon as it and every call before it are done — so results are
 * stored in order while later calls still run. When a hand-off or an execution fails, no further
 * call starts, `onFailure` runs (to cancel the ones under way), nothing more is handed on, and the
 * failure is thrown once every started call has settled: nothing runs on after this returns.
 */
export async function runToolCalls(
  calls: readonly OpenAIToolCall[],
  concurrency: number,
  execute: (call: OpenAIToolCall) => Promise<ToolCallResult>,
  onResult: (result: ToolCallResult, index: number) => Promise<void> | void,
  onFailure: () => void = () => {},
): Promise<void> {
  const results: (ToolCallResult | undefined)[] = new Array(calls.length);
  let nextToStart = 0;
  let nextToHand = 0;
  let failure: { error: unknown } | undefined;
  // Hand-offs run one after another, in order, even when results arrive out of order.
  let handing: Promise<void> = Promise.resolve();

  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure = { error };
    onFailure();
  };

  const handReady = () => {
    handing = handing.then(async () => {
      for (
        let result = results[nextToHand];
        result !== undefined && failure === undefined;
        result = results[nextToHand]
      ) {
        const index = nextToHand++;
        try {
          await onResult(result, index);
        } catch (error) {
          fail(error);
        }
      }
    });
    return handing;
  };

  async function worker(): Promise<void> {
    while (nextToStart < calls.length && failure === undefined) {
      const index = nextToStart++;
      try {
        results[index] = await execute(calls[index] as OpenAIToolCall);
      } catch (error) {
        fail(error);
        return;
      }
      await handReady();
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
  await handing;
  if (failure !== undefined) throw failure.error;
}
