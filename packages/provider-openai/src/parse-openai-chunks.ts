import { CairnError } from '@cairn/core';
import { classifyHttpError, parseSse } from '@cairn/provider-utils';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

/**
 * The chunks of a streamed Chat Completions response (or, as `T`, the events of a Responses API
 * stream, which share the framing), read from the SDK's raw `Response`. The
 * SDK's own `Stream` would throw a bare `SyntaxError` for a malformed line (losing the line) and
 * end quietly on abort; here a malformed line is `LLM_BAD_RESPONSE` with the line as `raw`.
 */
export async function* parseOpenAIChunks<T = ChatCompletionChunk>(response: Response): AsyncGenerator<T> {
  if (response.body === null) {
    throw new CairnError('LLM_BAD_RESPONSE', 'openai: the stream response has no body', {
      details: { provider: 'openai' },
    });
  }
  for await (const event of parseSse(response.body)) {
    if (event.data === '[DONE]') return;
    const chunk = parseChunk(event.data);
    // A failure after the headers were sent: OpenAI writes `{ error }` as a data line.
    if (typeof chunk.error === 'object' && chunk.error !== null) {
      throw streamError(chunk.error, response.headers);
    }
    yield chunk as unknown as T;
  }
}

function parseChunk(data: string): Record<string, unknown> {
  try {
    const chunk: unknown = JSON.parse(data);
    if (typeof chunk === 'object' && chunk !== null && !Array.isArray(chunk)) {
      return chunk as Record<string, unknown>;
    }
  } catch {
    // Reported below with the line itself.
  }
  throw new CairnError('LLM_BAD_RESPONSE', 'openai: the stream sent a line that is not a JSON object', {
    details: { provider: 'openai', raw: data },
  });
}

/** vLLM gives the HTTP status as a numeric `code`; OpenAI's mid-stream errors are server errors. */
function streamError(error: object, headers: Headers): CairnError {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const status = typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
  return classifyHttpError({
    status,
    headers,
    body: { error },
    message: typeof message === 'string' ? message : 'the stream reported an error',
    provider: 'openai',
  });
}
