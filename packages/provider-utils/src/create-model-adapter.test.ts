import { CairnError, type ModelRequest } from '@cairn/core';
import { describe, expect, it, vi } from 'vitest';
import { createModelAdapter, type ModelAdapterSpec } from './create-model-adapter.js';
import type { StreamSink } from './stream-sink.js';

const CAPABILITIES = { streaming: true, toolCalls: false, parallelToolCalls: false, reasoning: false };
const REQUEST: ModelRequest = { messages: [{ role: 'user', content: 'Weather in Oslo?' }] };

/** A 503 that asks for no wait, so a retry happens at once. */
const busy = () => Object.assign(new Error('busy'), { status: 503, headers: { 'retry-after-ms': '0' } });

async function* eventsOf(...events: string[]): AsyncGenerator<string> {
  yield* events;
}

function answer(sink: StreamSink, text: string): void {
  sink.start({ responseId: 'resp_1', modelId: 'model-x' });
  sink.textDelta('t', text);
  sink.finish('stop', 'end_turn');
}

/** A provider whose body is the user's text and whose answer is the text it was sent. */
function spec(
  overrides: Partial<ModelAdapterSpec<string, string, string>> = {},
): ModelAdapterSpec<string, string, string> {
  return {
    provider: 'acme',
    modelId: 'model-x',
    capabilities: CAPABILITIES,
    maxRetries: 2,
    prepare: (request) => String(request.messages[0]?.content),
    send: async (body) => `echo: ${body}`,
    readResponse: (response, assembler) => answer(assembler, response),
    open: async (body) => eventsOf('echo: ', body),
    readEvents: async (events, sink) => {
      sink.start({ responseId: 'resp_1', modelId: 'model-x' });
      for await (const event of events) sink.textDelta('t', event);
      sink.finish('stop', 'end_turn');
    },
    ...overrides,
  };
}

const textOf = (content: unknown) =>
  Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : content;

describe('createModelAdapter', () => {
  it('describes the model as the spec says', () => {
    const adapter = createModelAdapter(spec());
    expect([adapter.provider, adapter.modelId, adapter.capabilities]).toEqual([
      'acme',
      'model-x',
      CAPABILITIES,
    ]);
  });

  it('generate: prepares the body once, retries a retryable attempt and assembles the answer', async () => {
    const prepare = vi.fn(spec().prepare);
    const send = vi.fn<(body: string) => Promise<string>>().mockRejectedValueOnce(busy());
    send.mockImplementation(async (body) => `echo: ${body}`);
    const result = await createModelAdapter(spec({ prepare, send })).generate(REQUEST);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(send.mock.calls.map(([body]) => body)).toEqual(['Weather in Oslo?', 'Weather in Oslo?']);
    expect(textOf(result.message.content)).toBe('echo: Weather in Oslo?');
    expect(result.finishReason).toBe('stop');
  });

  it('generate: a body the provider refuses fails the call before anything is sent, the error unchanged', async () => {
    const refused = new CairnError('UNSUPPORTED_CONTENT', 'acme: cannot take image/tiff');
    const send = vi.fn(spec().send);
    const adapter = createModelAdapter(
      spec({
        prepare: () => {
          throw refused;
        },
        send,
      }),
    );
    await expect(adapter.generate(REQUEST)).rejects.toBe(refused);
    expect(send).not.toHaveBeenCalled();
  });

  it('generate: whatever reading throws comes out classified for the provider', async () => {
    const adapter = createModelAdapter(
      spec({
        readResponse: () => {
          throw new SyntaxError('Unexpected token');
        },
      }),
    );
    await expect(adapter.generate(REQUEST)).rejects.toMatchObject({
      code: 'LLM_BAD_RESPONSE',
      details: { provider: 'acme' },
    });
  });

  it('generate: gives up after maxRetries', async () => {
    const send = vi.fn<() => Promise<string>>().mockRejectedValue(busy());
    await expect(createModelAdapter(spec({ maxRetries: 1, send })).generate(REQUEST)).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
    });
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('stream: retries opening until the first event, passes a live signal, and reads the events', async () => {
    const signals: AbortSignal[] = [];
    const open = vi.fn(async (body: string, _request: ModelRequest, signal: AbortSignal) => {
      signals.push(signal);
      if (signals.length === 1) throw busy();
      return eventsOf('echo: ', body);
    });
    const stream = createModelAdapter(spec({ open })).stream(REQUEST);
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.delta);
    expect(deltas).toEqual(['echo: ', 'Weather in Oslo?']);
    expect(open).toHaveBeenCalledTimes(2);
    expect(signals.every((signal) => signal instanceof AbortSignal && !signal.aborted)).toBe(true);
    expect(textOf((await stream.result).message.content)).toBe('echo: Weather in Oslo?');
  });

  it('stream: a failure after the first event is final (never replayed) and classified', async () => {
    const open = vi.fn(async () =>
      (async function* () {
        yield 'echo: ';
        throw busy();
      })(),
    );
    const stream = createModelAdapter(spec({ open })).stream(REQUEST);
    await expect(stream.result).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      details: { provider: 'acme' },
    });
    expect(open).toHaveBeenCalledTimes(1);
  });

  it("stream: the request's signal reaches the attempt", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const stream = createModelAdapter(
      spec({
        open: (_body, _request, signal) => {
          seen = signal;
          return new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          );
        },
      }),
    ).stream({ ...REQUEST, signal: controller.signal });
    await vi.waitFor(() => expect(seen).toBeDefined());
    controller.abort();
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(seen?.aborted).toBe(true);
  });
});
