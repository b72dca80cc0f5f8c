import { SseParser } from '@cairn/provider-utils';

// How many of the latest events are kept: a network read can hold several, and the SDK parses them
// one by one after the read, so the bad one is among the latest few.
const KEPT_EVENTS = 8;

/** A `fetch` for the SDK that also remembers the latest SSE events of the answer it returns. */
export interface GeminiStreamTail {
  fetch: typeof fetch;
  /** The data of the latest event that is not JSON: the line the SDK could not parse, as it came. */
  malformedData(): string | undefined;
}

/**
 * `@google/genai` parses each stream event with `Response.json()`, so a malformed line leaves only
 * a SyntaxError that quotes a few characters of it. Reading the same bytes on their way to the SDK
 * keeps the whole line for the error (`LLM_BAD_RESPONSE` with `raw`). The bytes pass unchanged.
 */
export function createGeminiStreamTail(baseFetch: typeof fetch = fetch): GeminiStreamTail {
  const latest: string[] = [];
  const tailFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok || response.body === null) return response;
    const parser = new SseParser();
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          for (const event of parser.push(chunk)) latest.push(event.data);
          latest.splice(0, Math.max(0, latest.length - KEPT_EVENTS));
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return {
    fetch: tailFetch,
    malformedData: () => latest.find((data) => !isJson(data)),
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
