import { type AgentOutput, CairnError, type ModelStream, parseAgentOutput } from '@cairn/core';
import { describe, expect, it, vi } from 'vitest';
import { createModelStream, type ModelStreamRun } from './create-model-stream.js';
import { createResultAssembler } from './result-assembler.js';
import type { StreamSink } from './stream-sink.js';

const clock = () => new Date('2025-01-01T00:00:00.000Z');

async function drain(stream: ModelStream): Promise<AgentOutput[]> {
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(parseAgentOutput(event));
  return events;
}

const brief = (events: AgentOutput[]) =>
  events.map((event) => {
    const { timestamp: _timestamp, messageId: _messageId, ...rest } = event;
    return rest;
  });

/** A turn with reasoning, text and a tool call whose arguments stream in pieces. */
function reportTurn(sink: StreamSink): void {
  sink.start({ responseId: 'resp_1', modelId: 'model-x' });
  sink.reasoningDelta('r', 'Let me ');
  sink.reasoningDelta('r', 'look.');
  sink.reasoningEnd('r', { providerMetadata: { anthropic: { signature: 'sig' } } });
  sink.textDelta('t', 'Checking');
  sink.textDelta('t', '');
  sink.textDelta('t', ' 🌍.');
  sink.toolCallStart('call_1', 'weather');
  sink.toolInputDelta('call_1', '{"city":');
  sink.toolInputDelta('call_1', '"Paris"}');
  sink.finish('tool_calls', 'tool_use');
  sink.usage({ inputTokens: 12, outputTokens: 7 });
}

/** A run that reports `before`, then waits until aborted (a provider that stalls mid-stream). */
function stalling(before: (sink: StreamSink) => void): ModelStreamRun {
  return (sink, signal) => {
    before(sink);
    return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  };
}

describe('createModelStream', () => {
  it('turns the reported pieces into ordered AgentOutput events and the result', async () => {
    const stream = createModelStream(async (sink) => reportTurn(sink), { provider: 'test', now: clock });
    const events = await drain(stream);
    expect(brief(events)).toEqual([
      { type: 'reasoning_delta', id: 'reasoning-0', delta: 'Let me ' },
      { type: 'reasoning_delta', id: 'reasoning-0', delta: 'look.' },
      {
        type: 'reasoning',
        id: 'reasoning-0',
        text: 'Let me look.',
        providerMetadata: { anthropic: { signature: 'sig' } },
      },
      { type: 'text_delta', id: 'text-1', delta: 'Checking' },
      { type: 'text_delta', id: 'text-1', delta: ' 🌍.' },
      { type: 'tool_input_delta', id: 'call_1', toolName: 'weather', delta: '{"city":' },
      { type: 'tool_input_delta', id: 'call_1', toolName: 'weather', delta: '"Paris"}' },
      { type: 'text', id: 'text-1', text: 'Checking 🌍.' },
      {
        type: 'tool_use',
        id: 'call_1',
        toolName: 'weather',
        input: { city: 'Paris' },
        inputText: '{"city":"Paris"}',
      },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 7 } },
      { type: 'finish', reason: 'tool_calls', rawReason: 'tool_use' },
    ]);
    expect(events.every((event) => event.timestamp === '2025-01-01T00:00:00.000Z')).toBe(true);
    expect(events.every((event) => event.messageId === 'resp_1')).toBe(true);
    await expect(stream.result).resolves.toMatchObject({
      message: {
        role: 'assistant',
        content: 'Checking 🌍.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      finishReason: 'tool_calls',
      responseId: 'resp_1',
      modelId: 'model-x',
    });
  });

  it('produces the same result as the assembler a non-streaming call uses', async () => {
    const stream = createModelStream(async (sink) => reportTurn(sink), { provider: 'test' });
    const assembler = createResultAssembler();
    reportTurn(assembler);
    expect(await stream.result).toEqual(assembler.complete());
  });

  it('keeps invalid tool arguments as the raw string', async () => {
    const stream = createModelStream(
      async (sink) => {
        sink.toolCallStart('c', 'f');
        sink.toolInputDelta('c', '{"broken');
        sink.finish('tool_calls');
      },
      { provider: 'test' },
    );
    const events = await drain(stream);
    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({ input: '{"broken' });
    expect((await stream.result).message.tool_calls?.[0]?.function.arguments).toBe('{"broken');
  });

  it('reports a failing run as a fatal error then finish error, dropping unfinished tool calls', async () => {
    const stream = createModelStream(
      async (sink) => {
        sink.start({ responseId: 'r' });
        sink.textDelta('0', 'Half');
        sink.toolCallStart('c', 'f');
        sink.toolInputDelta('c', '{"a"');
        sink.usage({ inputTokens: 3, outputTokens: 1 });
        throw Object.assign(new Error('503 overloaded'), { status: 503, headers: { 'retry-after': '1' } });
      },
      { provider: 'test' },
    );
    const events = await drain(stream);
    expect(brief(events).slice(2)).toEqual([
      { type: 'text', id: 'text-0', text: 'Half' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 1 } },
      {
        type: 'error',
        code: 'LLM_UNAVAILABLE',
        message: 'test: 503 overloaded',
        retryable: true,
        retryAfterMs: 1000,
        fatal: true,
      },
      { type: 'finish', reason: 'error' },
    ]);
    expect(events.some((event) => event.type === 'tool_use')).toBe(false);
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE', retryAfterMs: 1000 });
  });

  it('keeps the offending text of a bad response on the error event', async () => {
    const stream = createModelStream(
      async () => {
        throw new CairnError('LLM_BAD_RESPONSE', 'bad line', { details: { raw: 'data: {nope' } });
      },
      { provider: 'test' },
    );
    const events = await drain(stream);
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'LLM_BAD_RESPONSE', raw: 'data: {nope' });
  });

  it('fails a stream that ends without a finish reason (a cut connection)', async () => {
    const stream = createModelStream(async (sink) => sink.textDelta('0', 'partial'), { provider: 'test' });
    const events = await drain(stream);
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'text', 'error', 'finish']);
    expect(events.at(-1)).toMatchObject({ reason: 'error' });
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE' });
  });

  it('fails a stream whose provider sends a second finish, naming both', async () => {
    const stream = createModelStream(
      async (sink) => {
        sink.textDelta('t', 'Done.');
        sink.finish('stop', 'end_turn');
        sink.usage({ inputTokens: 3, outputTokens: 2 });
        sink.finish('length', 'max_tokens');
      },
      { provider: 'test' },
    );
    const events = await drain(stream);
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'text', 'usage', 'error', 'finish']);
    const message = "the response sent a second finish 'max_tokens' after its finish 'end_turn'";
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'LLM_BAD_RESPONSE', message });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE', message });
  });

  it.each([
    ['a text delta', (sink: StreamSink) => sink.textDelta('t2', 'more')],
    ['a reasoning delta', (sink: StreamSink) => sink.reasoningDelta('r', 'more')],
    ['tool call call_9 (search)', (sink: StreamSink) => sink.toolCallStart('call_9', 'search')],
    ['a tool input delta for call_1', (sink: StreamSink) => sink.toolInputDelta('call_1', '}')],
  ])('fails a stream whose provider sends %s after finish', async (what, afterFinish) => {
    const stream = createModelStream(
      async (sink) => {
        sink.toolCallStart('call_1', 'weather');
        sink.toolInputDelta('call_1', '{"city":"Oslo"');
        sink.finish('tool_calls');
        // Trailing usage and metadata after finish are normal (OpenAI's usage chunk).
        sink.usage({ inputTokens: 3, outputTokens: 2 });
        sink.metadata({ test: { late: true } });
        afterFinish(sink);
      },
      { provider: 'test' },
    );
    const events = await drain(stream);
    const message = `the response sent ${what} after its finish 'tool_calls'`;
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'LLM_BAD_RESPONSE', message });
    expect(events.filter((event) => event.type === 'finish')).toEqual([
      expect.objectContaining({ reason: 'error' }),
    ]);
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE', message });
  });

  it('ends with finish aborted when the request signal fires mid-stream, even if the SDK lingers', async () => {
    const controller = new AbortController();
    const stream = createModelStream(
      async (sink) => {
        sink.toolCallStart('c', 'f');
        sink.toolInputDelta('c', '{"x":');
        await new Promise(() => undefined); // an SDK that never notices the abort
      },
      { provider: 'test', signal: controller.signal },
    );
    const events: AgentOutput[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'tool_input_delta') controller.abort();
    }
    expect(events.map((event) => event.type)).toEqual(['tool_input_delta', 'error', 'finish']);
    expect(events.at(-2)).toMatchObject({ code: 'LLM_ABORTED', retryable: false, fatal: true });
    expect(events.at(-1)).toMatchObject({ reason: 'aborted' });
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_ABORTED' });
  });

  it('does not start a call whose signal already fired', async () => {
    const run = vi.fn(async () => undefined);
    const stream = createModelStream(run, { provider: 'test', signal: AbortSignal.abort() });
    expect((await drain(stream)).map((event) => event.type)).toEqual(['error', 'finish']);
    expect(run).not.toHaveBeenCalled();
  });

  it('aborts the run when the consumer stops iterating early', async () => {
    let runSignal: AbortSignal | undefined;
    const stream = createModelStream(
      (sink, signal) => {
        runSignal = signal;
        return stalling((inner) => inner.textDelta('0', 'hello'))(sink, signal);
      },
      { provider: 'test' },
    );
    for await (const event of stream) if (event.type === 'text_delta') break;
    expect(runSignal?.aborted).toBe(true);
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_ABORTED' });
  });

  it('resolves result without anyone iterating, and lets several readers see every event', async () => {
    const stream = createModelStream(
      async (sink) => {
        sink.textDelta('0', 'hi');
        sink.finish('stop', 'end_turn');
      },
      { provider: 'test' },
    );
    await expect(stream.result).resolves.toMatchObject({ message: { content: 'hi' }, finishReason: 'stop' });
    const [first, second] = await Promise.all([drain(stream), drain(stream)]);
    expect(first).toEqual(second);
    expect(first.map((event) => event.type)).toEqual(['text_delta', 'text', 'finish']);
  });
});
