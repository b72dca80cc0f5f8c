import type { AgentOutput, ModelAdapter, ModelStream } from '@cairn/core';
import { CairnError } from '@cairn/core';

type Settings = { baseURL: string; apiKey: string; maxRetries: number };
type Factory = (settings: Settings) => ModelAdapter;

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

/** Broken variants of a good adapter, each breaking one rule the kit checks. */
export function brokenAdapters(good: Factory): Record<string, Factory> {
  return {
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
