import { CairnError, type ModelCall, type ModelResult, type ToolCallResult } from '@cairn/core';
import { type Attributes, createNoopMeter, type Histogram, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createOtelTelemetry } from './create-otel-telemetry.js';

// What the telemetry hands the SDK, seen through a meter that keeps every record.
interface MetricRecord {
  name: string;
  value: number;
  attributes: Attributes | undefined;
}

function recordingMeter() {
  const records: MetricRecord[] = [];
  const meter = Object.assign(createNoopMeter(), {
    createHistogram: (name: string): Histogram => ({
      record: (value, attributes) => records.push({ name, value, attributes }),
    }),
  });
  return { meter, records };
}

const tracer = trace.getTracerProvider().getTracer('test');
const call: ModelCall = { provider: 'openai', model: 'gpt-4o', request: { messages: [] } };
const answer: ModelResult = {
  message: { role: 'assistant', content: 'hi' },
  usage: { inputTokens: 12, outputTokens: 3 },
  finishReason: 'stop',
  modelId: 'gpt-4o-2024-08-06',
};
const common = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-4o',
};

describe('the SDK calls of createOtelTelemetry', () => {
  it('hands the meter the same attribute objects for every record of a set', async () => {
    const { meter, records } = recordingMeter();
    const telemetry = createOtelTelemetry({ tracer, meter });
    for (let index = 0; index < 2; index++) {
      await telemetry.modelCall(call, async (scope) => scope.end(answer));
    }
    const [first, second] = [records.slice(0, 3), records.slice(3)];
    expect(first.map(({ name, value, attributes }) => [name, value, attributes])).toEqual([
      [
        'gen_ai.client.token.usage',
        12,
        { ...common, 'gen_ai.response.model': 'gpt-4o-2024-08-06', 'gen_ai.token.type': 'input' },
      ],
      [
        'gen_ai.client.token.usage',
        3,
        { ...common, 'gen_ai.response.model': 'gpt-4o-2024-08-06', 'gen_ai.token.type': 'output' },
      ],
      [
        'gen_ai.client.operation.duration',
        expect.any(Number),
        { ...common, 'gen_ai.response.model': 'gpt-4o-2024-08-06' },
      ],
    ]);
    second.forEach((record, index) => {
      expect(record.attributes).toBe(first[index]?.attributes);
    });
  });

  it('records a failure with its error.type on a set of its own: the shared ones stay as they were', async () => {
    const { meter, records } = recordingMeter();
    const telemetry = createOtelTelemetry({ tracer, meter });
    await telemetry.modelCall(call, async (scope) => scope.end(answer));
    const failure = new CairnError('LLM_RATE_LIMITED', 'slow down');
    await expect(
      telemetry.modelCall(call, async (scope) => {
        scope.end(answer);
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(
      telemetry.modelCall(call, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    await telemetry.modelCall(call, async (scope) => scope.end(answer));
    const durations = records
      .filter((record) => record.name === 'gen_ai.client.operation.duration')
      .map((record) => record.attributes);
    const answered = { ...common, 'gen_ai.response.model': 'gpt-4o-2024-08-06' };
    expect(durations).toEqual([
      answered,
      { ...answered, 'error.type': 'LLM_RATE_LIMITED' },
      // Failed before any answer: no response model.
      { ...common, 'error.type': 'LLM_RATE_LIMITED' },
      answered,
    ]);
    expect(durations[3]).toBe(durations[0]);
  });

  it('reads a tool result’s content only when it is recorded or names the failure', async () => {
    const { meter } = recordingMeter();
    let reads = 0;
    const result = (isError: boolean): ToolCallResult => ({
      toolCallId: 'call_1',
      toolName: 'get_weather',
      get content() {
        reads++;
        return 'Oslo: 12°C\nand more';
      },
      isError,
      durationMs: 1,
    });
    const execution = {
      call: { id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } },
    };
    for (const recordContent of [false, true]) {
      const telemetry = createOtelTelemetry({ tracer, meter, recordContent });
      for (const isError of [false, true]) {
        await telemetry.toolExecution(execution, async (scope) => scope.end(result(isError)));
      }
    }
    // Not for a success without recordContent; once for each of the three others.
    expect(reads).toBe(3);
  });
});
