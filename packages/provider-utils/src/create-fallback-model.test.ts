import {
  type AgentOutput,
  CairnError,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelResult,
} from '@cairn/core';
import { describe, expect, it } from 'vitest';
import {
  answeredBy,
  createFallbackModel,
  fallbackCapabilities,
  MODEL_FALLBACK_STATUS,
  modelFallbackOf,
} from './create-fallback-model.js';
import { createModelStream } from './create-model-stream.js';
import { createResultAssembler } from './result-assembler.js';

/** What a fake model does on each call: answer `text`, or stream `before` and then fail with `error`. */
interface Behaviour {
  text?: string;
  before?: string;
  error?: CairnError;
}

const STREAMING: ModelCapabilities = {
  streaming: true,
  toolCalls: true,
  parallelToolCalls: true,
  reasoning: false,
};

function fakeModel(provider: string, behaviours: Behaviour[], capabilities = STREAMING) {
  const calls: number[] = [];
  const next = () => {
    calls.push(calls.length + 1);
    return behaviours.shift() ?? { text: 'out of script' };
  };
  const model: ModelAdapter = {
    provider,
    modelId: `${provider}-1`,
    capabilities,
    async generate() {
      const behaviour = next();
      if (behaviour.error !== undefined) throw behaviour.error;
      const assembler = createResultAssembler();
      assembler.textDelta('0', behaviour.text ?? '');
      assembler.finish('stop');
      return assembler.complete();
    },
    stream(request) {
      const behaviour = next();
      return createModelStream(
        async (sink) => {
          sink.start({ responseId: `${provider}-response` });
          if (behaviour.before !== undefined) sink.textDelta('0', behaviour.before);
          if (behaviour.error !== undefined) throw behaviour.error;
          sink.textDelta('0', behaviour.text ?? '');
          sink.finish('stop');
        },
        { provider, ...(request.signal === undefined ? {} : { signal: request.signal }) },
      );
    },
  };
  return { model, calls };
}

const unavailable = () => new CairnError('LLM_UNAVAILABLE', 'overloaded');
const request = { messages: [{ role: 'user' as const, content: 'Hi' }] };

async function collect(model: ModelAdapter) {
  const stream = model.stream(request);
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  let value: ModelResult | undefined;
  let error: CairnError | undefined;
  try {
    value = await stream.result;
  } catch (thrown) {
    error = thrown as CairnError;
  }
  return { events, value, error };
}

describe('createFallbackModel', () => {
  it('generate: the next model answers when the first is unavailable, and the answer says which', async () => {
    const primary = fakeModel('acme', [{ error: unavailable() }]);
    const backup = fakeModel('backup', [{ text: 'Hello from backup.' }]);
    const model = createFallbackModel([primary.model, backup.model]);
    const result = await model.generate(request);
    expect(result.message.content).toBe('Hello from backup.');
    expect(result.modelId).toBe('backup-1');
    expect(answeredBy(result.message)).toEqual({ provider: 'backup', model: 'backup-1' });
    expect(model).toMatchObject({ provider: 'acme', modelId: 'acme-1' });
  });

  it('stream: a failure before any output is a status event, then the next model answers', async () => {
    const primary = fakeModel('acme', [{ error: new CairnError('LLM_RATE_LIMITED', 'slow down') }]);
    const backup = fakeModel('backup', [{ text: 'Hi!' }]);
    const { events, value, error } = await collect(createFallbackModel([primary.model, backup.model]));
    expect(error).toBeUndefined();
    expect(value?.message.content).toBe('Hi!');
    expect(events.map((event) => event.type)).toEqual(['status', 'text_delta', 'text', 'finish']);
    expect(events[0]).toMatchObject({ type: 'status', status: MODEL_FALLBACK_STATUS });
    expect(modelFallbackOf(events[0] as AgentOutput)).toEqual({
      from: { provider: 'acme', model: 'acme-1' },
      to: { provider: 'backup', model: 'backup-1' },
      code: 'LLM_RATE_LIMITED',
      afterOutput: false,
    });
  });

  it('stream: after a cut-off answer the status event says so, and exactly one finish ends the stream', async () => {
    const primary = fakeModel('acme', [{ before: 'Hel', error: unavailable() }]);
    const backup = fakeModel('backup', [{ text: 'Hello.' }]);
    const { events, value } = await collect(createFallbackModel([primary.model, backup.model]));
    expect(value?.message.content).toBe('Hello.');
    expect(events.map((event) => event.type)).toEqual([
      'text_delta',
      'text',
      'status',
      'text_delta',
      'text',
      'finish',
    ]);
    expect(modelFallbackOf(events[2] as AgentOutput)).toMatchObject({ afterOutput: true });
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });

  it('does not switch on a failure outside `on`: the first model’s error and finish reach the caller', async () => {
    const primary = fakeModel('acme', [
      { error: new CairnError('LLM_AUTH', 'bad key') },
      { error: new CairnError('LLM_AUTH', 'bad key') },
    ]);
    const backup = fakeModel('backup', [{ text: 'never' }]);
    const model = createFallbackModel([primary.model, backup.model]);
    const { events, error } = await collect(model);
    expect(error?.code).toBe('LLM_AUTH');
    expect(events.map((event) => event.type)).toEqual(['error', 'finish']);
    await expect(model.generate(request)).rejects.toMatchObject({ code: 'LLM_AUTH' });
    expect(backup.calls).toEqual([]);
  });

  it('`on` takes codes or a predicate', async () => {
    const overflow = () => new CairnError('LLM_CONTEXT_OVERFLOW', 'too long');
    const byCode = createFallbackModel(
      [fakeModel('acme', [{ error: overflow() }]).model, fakeModel('big', [{ text: 'fits' }]).model],
      { on: ['LLM_CONTEXT_OVERFLOW'] },
    );
    expect((await byCode.generate(request)).message.content).toBe('fits');
    const byPredicate = createFallbackModel(
      [fakeModel('acme', [{ error: unavailable() }]).model, fakeModel('backup', [{ text: 'x' }]).model],
      { on: (error) => error.code === 'LLM_TIMEOUT' },
    );
    await expect(byPredicate.generate(request)).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE' });
  });

  it('fails with the last error, every model’s failure in details.attempts, when all fail', async () => {
    const model = createFallbackModel([
      fakeModel('acme', [{ error: unavailable() }]).model,
      fakeModel('backup', [{ error: new CairnError('LLM_TIMEOUT', 'no answer') }]).model,
    ]);
    const { events, error } = await collect(model);
    expect(error).toMatchObject({ code: 'LLM_TIMEOUT', retryable: true });
    expect(error?.details?.attempts).toEqual([
      { provider: 'acme', model: 'acme-1', code: 'LLM_UNAVAILABLE', message: 'overloaded' },
      { provider: 'backup', model: 'backup-1', code: 'LLM_TIMEOUT', message: 'no answer' },
    ]);
    expect(events.map((event) => event.type)).toEqual(['status', 'error', 'finish']);
  });

  it('never switches after an abort', async () => {
    const controller = new AbortController();
    controller.abort();
    const backup = fakeModel('backup', [{ text: 'never' }]);
    const model = createFallbackModel([
      fakeModel('acme', [{ error: new CairnError('LLM_ABORTED', 'aborted') }]).model,
      backup.model,
    ]);
    await expect(model.generate({ ...request, signal: controller.signal })).rejects.toMatchObject({
      code: 'LLM_ABORTED',
    });
    expect(backup.calls).toEqual([]);
  });

  it('ends the call, without switching, when the consumer stops reading early', async () => {
    let seen: AbortSignal | undefined;
    const slow: ModelAdapter = {
      ...fakeModel('acme', []).model,
      stream: (request) =>
        createModelStream(
          async (sink, signal) => {
            seen = request.signal;
            sink.textDelta('0', 'first words');
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
            throw new CairnError('LLM_UNAVAILABLE', 'would have switched');
          },
          { provider: 'acme', ...(request.signal === undefined ? {} : { signal: request.signal }) },
        ),
    };
    const backup = fakeModel('backup', [{ text: 'never' }]);
    const stream = createFallbackModel([slow, backup.model]).stream(request);
    for await (const event of stream) if (event.type === 'text_delta') break;
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(seen?.aborted).toBe(true);
    expect(backup.calls).toEqual([]);
  });

  it('starts every call at the first model again', async () => {
    const primary = fakeModel('acme', [{ error: unavailable() }, { text: 'back again' }]);
    const backup = fakeModel('backup', [{ text: 'stand-in' }]);
    const model = createFallbackModel([primary.model, backup.model]);
    expect((await model.generate(request)).message.content).toBe('stand-in');
    const second = await model.generate(request);
    expect(second.message.content).toBe('back again');
    expect(answeredBy(second.message)).toEqual({ provider: 'acme', model: 'acme-1' });
  });
});

describe('fallbackCapabilities', () => {
  it('is what every model can do; reasoning when any reasons; the smallest limits', () => {
    const a = fakeModel('a', [], {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: true,
      reasoning: true,
      inputMediaTypes: ['image/*', 'application/pdf'],
      structuredOutput: true,
      contextWindowTokens: 200_000,
      maxOutputTokens: 8_000,
    }).model;
    const b = fakeModel('b', [], {
      streaming: true,
      toolCalls: true,
      parallelToolCalls: false,
      reasoning: false,
      inputMediaTypes: ['image/png', 'image/jpeg'],
      contextWindowTokens: 128_000,
      maxOutputTokens: 16_000,
    }).model;
    expect(fallbackCapabilities([a, b])).toEqual({
      streaming: true,
      toolCalls: true,
      parallelToolCalls: false,
      reasoning: true,
      inputMediaTypes: ['image/png', 'image/jpeg'],
      contextWindowTokens: 128_000,
      maxOutputTokens: 8_000,
    });
    // A limit one model does not state is not known for the chain.
    expect(fallbackCapabilities([a, fakeModel('c', []).model]).contextWindowTokens).toBeUndefined();
  });
});
