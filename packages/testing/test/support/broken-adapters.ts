import type { AgentOutput, ModelAdapter, ModelResult, ModelStream } from '@cairn/core';
import { CairnError } from '@cairn/core';
import type { MinimalAdapterBugs } from './minimal-openai-adapter.js';

type Settings = { baseURL: string; apiKey: string; maxRetries: number };
type Factory = (settings: Settings) => ModelAdapter;
/** The good adapter, able to switch on bugs that no wrapper can add from outside. */
type BuggableFactory = (settings: Settings, bugs?: MinimalAdapterBugs) => ModelAdapter;

/** The adapter with its stream events rewritten (dropped when `edit` returns undefined). */
function editStream(factory: Factory, edit: (event: AgentOutput) => AgentOutput | undefined): Factory {
  return (settings) => {
    const adapter = factory(settings);
    return {
      ...adapter,
      generate: (request) => adapter.generate(request),
      stream(request): ModelStream {
        const inner = adapter.stream(request);
        return {
          result: inner.result,
          async *[Symbol.asyncIterator]() {
            for await (const event of inner) {
              const edited = edit(event);
              if (edited) yield edited;
            }
          },
        };
      },
    };
  };
}

/** The adapter reporting `raw` as the provider's finish reason, in results and finish events alike. */
function withRawFinishReason(factory: Factory, raw: string): Factory {
  return (settings) => {
    const adapter = editStream(factory, (event) =>
      event.type === 'finish' ? { ...event, rawReason: raw } : event,
    )(settings);
    const relabel = (result: ModelResult): ModelResult => ({ ...result, rawFinishReason: raw });
    return {
      ...adapter,
      generate: (request) => adapter.generate(request).then(relabel),
      stream(request): ModelStream {
        const inner = adapter.stream(request);
        const result = inner.result.then(relabel);
        // As the original: a rejection nobody awaits must not surface as unhandled.
        result.catch(() => undefined);
        return { result, [Symbol.asyncIterator]: () => inner[Symbol.asyncIterator]() };
      },
    };
  };
}

/** Broken variants of a good adapter, each breaking one rule the kit checks. */
export function brokenAdapters(good: BuggableFactory): Record<string, Factory> {
  return {
    'ignores the abort signal (never passes it to the SDK)': (settings) =>
      good(settings, { sdkIgnoresAbort: true }),
    "reports 'stop' as the raw finish reason of every turn": withRawFinishReason(good, 'stop'),
    'never emits finish': editStream(good, (event) => (event.type === 'finish' ? undefined : event)),
    'leaves text blocks open': editStream(good, (event) => (event.type === 'text' ? undefined : event)),
    'does not stream tool-argument deltas': editStream(good, (event) =>
      event.type === 'tool_input_delta' ? undefined : event,
    ),
    'maps 429 to LLM_UNAVAILABLE': (settings) => {
      const adapter = good(settings);
      const remap = (error: unknown) =>
        CairnError.is(error, 'LLM_RATE_LIMITED') ? new CairnError('LLM_UNAVAILABLE', error.message) : error;
      return {
        ...adapter,
        generate: (request) =>
          adapter.generate(request).catch((error: unknown) => {
            throw remap(error);
          }),
        stream: (request) => adapter.stream(request),
      };
    },
    'replays a stream that failed after output': (settings) => {
      const adapter = good(settings);
      return {
        ...adapter,
        generate: (request) => adapter.generate(request),
        stream(request) {
          const first = adapter.stream(request);
          // Retries the whole call when it fails: exactly what must never happen mid-stream.
          return {
            result: first.result.catch(() => adapter.stream(request).result),
            async *[Symbol.asyncIterator]() {
              const events: AgentOutput[] = [];
              for await (const event of first) events.push(event);
              if (
                events.at(-1)?.type === 'finish' &&
                (events.at(-1) as { reason?: string }).reason === 'error'
              ) {
                yield* adapter.stream(request);
                return;
              }
              yield* events;
            },
          };
        },
      };
    },
  };
}
