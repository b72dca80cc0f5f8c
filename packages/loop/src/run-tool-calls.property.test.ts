import type { OpenAIToolCall, ToolCallResult } from '@cairn/core';
import { simulatedDelay } from '@cairn/testing';
import { propertyTimeout } from '@cairn/vitest-config/load';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runToolCalls } from './run-tool-calls.js';

const callsOf = (count: number): OpenAIToolCall[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `c${index}`,
    type: 'function',
    function: { name: 't', arguments: '{}' },
  }));

describe('runToolCalls', () => {
  it(
    'hands every result once, in call order, never running more than the concurrency',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.nat(4), { maxLength: 12 }),
          fc.integer({ min: 1, max: 5 }),
          async (delays, concurrency) => {
            let running = 0;
            let most = 0;
            const handed: string[] = [];
            await runToolCalls(
              callsOf(delays.length),
              concurrency,
              async (call): Promise<ToolCallResult> => {
                most = Math.max(most, ++running);
                const delay = delays[Number(call.id.slice(1))] ?? 0;
                await simulatedDelay(delay);
                running--;
                return { toolCallId: call.id, toolName: 't', content: '', isError: false, durationMs: delay };
              },
              async (result, index) => {
                expect(result.toolCallId).toBe(`c${index}`);
                // A slow hand-off (a persister) must not let a later result overtake it.
                await simulatedDelay(index % 2);
                handed.push(result.toolCallId);
              },
            );
            expect(handed).toEqual(callsOf(delays.length).map((call) => call.id));
            expect(most).toBeLessThanOrEqual(concurrency);
          },
        ),
        { numRuns: 60 },
      );
    },
    propertyTimeout(30_000),
  );
});
