import type { OpenAIToolCall, ToolCallResult } from '@cairn/core';

/**
 * Runs the calls of one assistant message, at most `concurrency` at a time, and hands each result
 * to `onResult` in call order as soon as it and every call before it are done — so results are
 * stored in order while later calls still run.
 */
export async function runToolCalls(
  calls: readonly OpenAIToolCall[],
  concurrency: number,
  execute: (call: OpenAIToolCall) => Promise<ToolCallResult>,
  onResult: (result: ToolCallResult, index: number) => Promise<void> | void,
): Promise<void> {
  const results: (ToolCallResult | undefined)[] = new Array(calls.length);
  let nextToStart = 0;
  let nextToHand = 0;
  // Hand-offs run one after another, in order, even when results arrive out of order.
  let handing: Promise<void> = Promise.resolve();

  const handReady = () => {
    handing = handing.then(async () => {
      for (let result = results[nextToHand]; result !== undefined; result = results[nextToHand]) {
        const index = nextToHand++;
        await onResult(result, index);
      }
    });
    return handing;
  };

  async function worker(): Promise<void> {
    while (nextToStart < calls.length) {
      const index = nextToStart++;
      results[index] = await execute(calls[index] as OpenAIToolCall);
      await handReady();
    }
  }

  const workers = Array.from({ length: Math.min(concurrency, calls.length) }, worker);
  await Promise.all(workers);
  await handing;
}
