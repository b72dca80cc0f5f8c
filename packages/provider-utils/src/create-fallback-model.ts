import {
  type AgentOutput,
  acceptsMediaType,
  CairnError,
  type CairnErrorCode,
  definedFields,
  type ModelAdapter,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResult,
  type ModelStream,
  type ProviderMetadata,
  toCairnError,
} from '@cairn/core';

/** The codes a fallback model switches on by default: the provider is busy or down, not the request bad. */
export const DEFAULT_FALLBACK_CODES: readonly CairnErrorCode[] = [
  'LLM_RATE_LIMITED',
  'LLM_UNAVAILABLE',
  'LLM_TIMEOUT',
];

/**
 * The `status` of the event a fallback model emits when it switches models. After it, the stream
 * starts its answer over: what streamed before it was another model's answer, cut off.
 */
export const MODEL_FALLBACK_STATUS = 'model_fallback';

export interface FallbackModelOptions {
  /**
   * Which failures move on to the next model: a list of codes, or a predicate. Default
   * `DEFAULT_FALLBACK_CODES`. An abort never switches.
   */
  on?: readonly CairnErrorCode[] | ((error: CairnError) => boolean);
  /** The clock behind the `model_fallback` events' timestamps (default: the system clock). */
  now?: () => Date;
}

/** Which model answered: kept in a message's `providerMetadata.cairn` (see `answeredBy`). */
export type AnsweringModel = { provider: string; model: string };

/** The `cairn` namespace of a `model_fallback` status event's `providerMetadata`. */
export type ModelFallbackInfo = {
  from: AnsweringModel;
  to: AnsweringModel;
  /** The code of the failure that made the switch. */
  code: CairnErrorCode;
  /** The failed model had streamed output (the answer was cut off) before it failed. */
  afterOutput: boolean;
};

// The events that show the caller part of an answer: after one of them, a switch is no longer silent.
const OUTPUT_EVENTS: ReadonlySet<AgentOutput['type']> = new Set([
  'text_delta',
  'text',
  'reasoning_delta',
  'reasoning',
  'tool_input_delta',
  'tool_use',
]);

/** The model recorded as having answered `message`, if a fallback model (or the runtime) recorded it. */
export function answeredBy(message: {
  providerMetadata?: ProviderMetadata | undefined;
}): AnsweringModel | undefined {
  const cairn = message.providerMetadata?.cairn;
  const provider = cairn?.provider;
  const model = cairn?.model;
  return typeof provider === 'string' && typeof model === 'string' ? { provider, model } : undefined;
}

/** The model info of a `model_fallback` status event, or `undefined` for any other event. */
export function modelFallbackOf(event: AgentOutput): ModelFallbackInfo | undefined {
  if (event.type !== 'status' || event.status !== MODEL_FALLBACK_STATUS) return undefined;
  return event.providerMetadata?.cairn as unknown as ModelFallbackInfo | undefined;
}

function answering(adapter: ModelAdapter, result?: ModelResult): AnsweringModel {
  return { provider: adapter.provider, model: result?.modelId ?? adapter.modelId };
}

// The result with who answered kept on the message: the loop and the log see which model it was.
function stamped(adapter: ModelAdapter, result: ModelResult): ModelResult {
  const who = answering(adapter, result);
  const { message } = result;
  return {
    ...result,
    modelId: who.model,
    message: {
      ...message,
      providerMetadata: { ...message.providerMetadata, cairn: { ...who } },
    },
  };
}

// Media types both lists accept: `image/*` and `image/png` give `image/png`.
function commonMediaTypes(a: readonly string[], b: readonly string[]): string[] {
  const common = new Set<string>();
  for (const type of a) if (acceptsMediaType(b, type)) common.add(type);
  for (const type of b) if (acceptsMediaType(a, type)) common.add(type);
  return [...common];
}

function smallest(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === values.length ? Math.min(...known) : undefined;
}

/**
 * What every model of the chain can do, since any of them may get the request: streaming, tool
 * calls, parallel calls, structured output and input media types only when all have them; the
 * smallest context window and output limit (known only when every model says). `reasoning` (the
 * answer may hold reasoning blocks) when any model reasons.
 */
export function fallbackCapabilities(models: readonly ModelAdapter[]): ModelCapabilities {
  const caps = models.map((model) => model.capabilities);
  const every = (pick: (c: ModelCapabilities) => boolean | undefined) => caps.every((c) => pick(c) === true);
  const media = caps
    .map((c) => c.inputMediaTypes ?? [])
    .reduce((common, types) => commonMediaTypes(common, types));
  return {
    streaming: every((c) => c.streaming),
    toolCalls: every((c) => c.toolCalls),
    parallelToolCalls: every((c) => c.parallelToolCalls),
    reasoning: caps.some((c) => c.reasoning),
    ...(media.length > 0 ? { inputMediaTypes: media } : {}),
    ...(every((c) => c.structuredOutput) ? { structuredOutput: true } : {}),
    ...definedFields({
      contextWindowTokens: smallest(caps.map((c) => c.contextWindowTokens)),
      maxOutputTokens: smallest(caps.map((c) => c.maxOutputTokens)),
    }),
  };
}

function switchRule(on: FallbackModelOptions['on']): (error: CairnError) => boolean {
  if (typeof on === 'function') return on;
  const codes = new Set(on ?? DEFAULT_FALLBACK_CODES);
  return (error) => codes.has(error.code);
}

/** One model's failed try. */
interface Attempt {
  adapter: ModelAdapter;
  error: CairnError;
}

function exhausted(attempts: Attempt[]): CairnError {
  const last = attempts.at(-1) as Attempt;
  if (attempts.length === 1) return last.error;
  return new CairnError(last.error.code, last.error.message, {
    cause: last.error,
    retryable: last.error.retryable,
    retryAfterMs: last.error.retryAfterMs,
    details: {
      ...last.error.details,
      // Every model's failure, in the order they were tried: nothing is lost.
      attempts: attempts.map(({ adapter, error }) => ({
        provider: adapter.provider,
        model: adapter.modelId,
        code: error.code,
        message: error.message,
      })),
    },
  });
}

/**
 * A `ModelAdapter` over a chain of models: each call goes to the first, and moves on to the next
 * when one fails with a code of `on` (rate limited, unavailable, timed out by default) — before
 * any output (the caller sees no difference but a `model_fallback` status event), or after the
 * stream was cut off (the event then tells the caller the answer starts over; `chatToolLoop` keeps
 * what streamed as an interrupted answer). Each call starts at the first model again: when it has
 * recovered, it answers. The answering model is recorded in the result message's
 * `providerMetadata.cairn` (`{ provider, model }`) and `modelId`.
 *
 * `provider` and `modelId` are the first model's: the runtime builds the history for that
 * provider, so the other models' replay data from earlier turns is left out (provider portability's
 * rule). `capabilities` is what all can do (`fallbackCapabilities`).
 */
export function createFallbackModel(
  models: readonly [ModelAdapter, ...ModelAdapter[]],
  options: FallbackModelOptions = {},
): ModelAdapter {
  if (models.length === 0)
    throw new CairnError('INVALID_ARGUMENT', 'createFallbackModel needs at least one model');
  const [primary] = models;
  const shouldSwitch = switchRule(options.on);
  const now = options.now ?? (() => new Date());
  const canSwitch = (request: ModelRequest, index: number, error: CairnError) =>
    index < models.length - 1 &&
    request.signal?.aborted !== true &&
    error.code !== 'LLM_ABORTED' &&
    shouldSwitch(error);

  const switchEvent = (
    from: ModelAdapter,
    to: ModelAdapter,
    error: CairnError,
    afterOutput: boolean,
  ): AgentOutput => {
    const info: ModelFallbackInfo = {
      from: answering(from),
      to: answering(to),
      code: error.code,
      afterOutput,
    };
    return {
      type: 'status',
      timestamp: now().toISOString(),
      status: MODEL_FALLBACK_STATUS,
      message: `${from.provider} ${from.modelId} failed (${error.code}: ${error.message})${afterOutput ? ' after part of its answer' : ''}; ${to.provider} ${to.modelId} answers instead`,
      providerMetadata: { cairn: { ...info } },
    };
  };

  return {
    provider: primary.provider,
    modelId: primary.modelId,
    capabilities: fallbackCapabilities(models),

    async generate(request) {
      const attempts: Attempt[] = [];
      for (const [index, adapter] of models.entries()) {
        try {
          return stamped(adapter, await adapter.generate(request));
        } catch (thrown) {
          const error = toCairnError(thrown, 'LLM_BAD_RESPONSE');
          attempts.push({ adapter, error });
          if (!canSwitch(request, index, error)) throw exhausted(attempts);
        }
      }
      throw exhausted(attempts);
    },

    stream(outer) {
      // A consumer that stops iterating early ends the call, as `createModelStream` does.
      const stopByConsumer = new AbortController();
      const signal =
        outer.signal === undefined
          ? stopByConsumer.signal
          : AbortSignal.any([outer.signal, stopByConsumer.signal]);
      const request: ModelRequest = { ...outer, signal };
      const events: AgentOutput[] = [];
      let ended = false;
      let wake: (() => void) | undefined;
      const push = (event: AgentOutput) => {
        events.push(event);
        wake?.();
      };
      const run = async (): Promise<ModelResult> => {
        const attempts: Attempt[] = [];
        for (const [index, adapter] of models.entries()) {
          const stream = adapter.stream(request);
          // The attempt's fatal error and finish wait: a switch replaces them with the status event.
          const held: AgentOutput[] = [];
          let output = false;
          for await (const event of stream) {
            if (event.type === 'finish' || (event.type === 'error' && event.fatal === true)) {
              held.push(event);
              continue;
            }
            if (OUTPUT_EVENTS.has(event.type)) output = true;
            push(event);
          }
          try {
            const result = await stream.result;
            for (const event of held) push(event);
            return stamped(adapter, result);
          } catch (thrown) {
            const error = toCairnError(thrown, 'LLM_BAD_RESPONSE');
            attempts.push({ adapter, error });
            if (!canSwitch(request, index, error)) {
              for (const event of held) push(event);
              throw exhausted(attempts);
            }
            push(switchEvent(adapter, models[index + 1] as ModelAdapter, error, output));
          }
        }
        throw exhausted(attempts);
      };
      const result = run();
      const finished = result.then(
        () => undefined,
        () => undefined,
      );
      void finished.then(() => {
        ended = true;
        wake?.();
      });
      return {
        result,
        async *[Symbol.asyncIterator]() {
          let next = 0;
          try {
            while (true) {
              if (next < events.length) {
                yield events[next++] as AgentOutput;
                continue;
              }
              if (ended) return;
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
            }
          } finally {
            if (!ended)
              stopByConsumer.abort(new CairnError('LLM_ABORTED', 'the stream was not read to its end'));
          }
        },
      } satisfies ModelStream;
    },
  };
}
