import { describe, expect, it } from 'vitest';
import { noopTelemetry } from './telemetry.js';

describe('noopTelemetry', () => {
  it('runs the work as it is: its value, its error, and a scope whose end does nothing', async () => {
    const call = { provider: 'openai', model: 'gpt-4o', request: { messages: [] } };
    const value = await noopTelemetry.modelCall(call, async (scope) => {
      expect(scope.telemetry).toBe(noopTelemetry);
      scope.end({
        message: { role: 'assistant', content: 'hi' },
        usage: { inputTokens: 1, outputTokens: 1 },
        finishReason: 'stop',
      });
      return 42;
    });
    expect(value).toBe(42);
    const failure = new Error('tool broke');
    await expect(
      noopTelemetry.toolExecution(
        { call: { id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } } },
        async () => {
          throw failure;
        },
      ),
    ).rejects.toBe(failure);
    expect(await noopTelemetry.invokeAgent({ agentName: 'a' }, async () => 'done')).toBe('done');
    expect(await noopTelemetry.serverRequest({ method: 'GET', headers: {} }, async () => 1)).toBe(1);
    expect(noopTelemetry.traceContext()).toEqual({});
  });
});
