import OpenAI, { type APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../script-turn.js';
import { mockServerPerTest } from './mock-server-per-test.js';
import type { MockTurns } from './start-mock-provider-server.js';

const mock = mockServerPerTest();

async function clientFor(turns: MockTurns, maxRetries = 0): Promise<OpenAI> {
  const server = await mock.start({ provider: 'openai', turns });
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-mock', maxRetries });
}

const messages = [{ role: 'user' as const, content: 'hi' }];
const parallelCalls: ScriptTurn = {
  text: 'Checking both.',
  toolCalls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'call_given', name: 'get_time', arguments: { zone: 'Europe/Paris' } },
  ],
  chunkSize: 4,
};

describe('OpenAI mock server through the official SDK', () => {
  it('answers a chat completion with text and usage, recording the request', async () => {
    const client = await clientFor([
      { text: 'Hello!', usage: { inputTokens: 7, outputTokens: 2, cacheReadTokens: 3 } },
    ]);
    const completion = await client.chat.completions.create({ model: 'gpt-mock', messages });
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Hello!' });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.model).toBe('gpt-mock');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 7,
      completion_tokens: 2,
      total_tokens: 9,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    expect(mock.server?.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(mock.server?.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/chat/completions',
        stream: false,
        body: { model: 'gpt-mock', messages },
        headers: expect.objectContaining({ authorization: 'Bearer sk-mock' }),
      }),
    ]);
  });

  it('answers parallel tool calls with JSON-string arguments and finish reason tool_calls', async () => {
    const client = await clientFor([parallelCalls]);
    const completion = await client.chat.completions.create({ model: 'gpt-mock', messages });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Checking both.');
    expect(choice?.message.tool_calls).toEqual([
      {
        id: 'call_mock0_0',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
      {
        id: 'call_given',
        type: 'function',
        function: { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' },
      },
    ]);
  });

  it('streams text and parallel tool-call argument deltas the SDK accumulates, then usage and [DONE]', async () => {
    const client = await clientFor([parallelCalls]);
    const stream = client.chat.completions.stream({
      model: 'gpt-mock',
      messages,
      stream_options: { include_usage: true },
    });
    const argumentPieces: string[][] = [[], []];
    const contentPieces: string[] = [];
    stream.on('chunk', (chunk) => {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) contentPieces.push(delta.content);
      for (const call of delta?.tool_calls ?? []) {
        if (call.function?.arguments) argumentPieces[call.index]?.push(call.function.arguments);
      }
    });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('Checking both.');
    expect(completion.choices[0]?.message.tool_calls?.map((call) => call.function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Paris"}' },
      { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' },
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
    expect(contentPieces).toEqual(['Chec', 'king', ' bot', 'h.']);
    expect(argumentPieces[0]?.length).toBeGreaterThan(1);
    expect(argumentPieces[1]?.join('')).toBe('{"zone":"Europe/Paris"}');
    expect(mock.server?.requests[0]).toMatchObject({ stream: true });
  });

  it('sends usage only when stream_options.include_usage asks for it, like the real API', async () => {
    const client = await clientFor([{ text: 'a' }]);
    const chunks = [];
    for await (const chunk of await client.chat.completions.create({ model: 'm', messages, stream: true })) {
      chunks.push(chunk);
    }
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('maps faults to the SDK error classes with the right status and retry headers', async () => {
    const client = await clientFor([
      { fault: { status: 401 } },
      { fault: { status: 429, retryAfterSeconds: 7 } },
      { fault: { status: 500 } },
      { fault: { status: 400, contextOverflow: true } },
      { fault: { status: 503, message: 'busy' } },
    ]);
    const call = () => client.chat.completions.create({ model: 'm', messages });
    const auth = await call().catch((error: unknown) => error);
    expect(auth).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(auth).toMatchObject({ status: 401, code: 'invalid_api_key' });
    const limited = await call().catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as APIError).headers?.get('retry-after')).toBe('7');
    expect(await call().catch((error: unknown) => error)).toBeInstanceOf(OpenAI.InternalServerError);
    const overflow = await call().catch((error: unknown) => error);
    expect(overflow).toBeInstanceOf(OpenAI.BadRequestError);
    expect(overflow).toMatchObject({ status: 400, code: 'context_length_exceeded' });
    expect((overflow as Error).message).toContain('maximum context length');
    const busy = await call().catch((error: unknown) => error);
    expect(busy).toMatchObject({ status: 503, message: '503 busy' });
  });

  it('lets the SDK retry a 429 after retry-after-ms, then succeed', async () => {
    const client = await clientFor([{ fault: { status: 429, retryAfterMs: 20 } }, { text: 'finally' }], 1);
    const completion = await client.chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]?.message.content).toBe('finally');
    expect(mock.server?.requests).toHaveLength(2);
  });

  it('fails a stream the server cuts mid-way, after delivering the first events', async () => {
    const client = await clientFor([{ text: 'abcdefghijklmnop', chunkSize: 2, cutAfterEvents: 3 }]);
    const received: string[] = [];
    const iterate = async () => {
      for await (const chunk of await client.chat.completions.create({
        model: 'm',
        messages,
        stream: true,
      })) {
        received.push(chunk.choices[0]?.delta.content ?? '');
      }
    };
    await expect(iterate()).rejects.toThrow();
    expect(received).toEqual(['', 'ab', 'cd']);
  });

  it('sends a malformed data line that the SDK refuses to parse', async () => {
    const client = await clientFor([{ text: 'abcdef', malformedAfterEvents: 2 }]);
    const iterate = async () => {
      for await (const _ of await client.chat.completions.create({ model: 'm', messages, stream: true })) {
        // drain
      }
    };
    await expect(iterate()).rejects.toThrow(SyntaxError);
    expect(mock.server?.requests).toHaveLength(1);
  });

  it('waits delayMs before answering and chunkDelayMs between events', async () => {
    const client = await clientFor([{ text: 'abc', chunkSize: 1, delayMs: 60, chunkDelayMs: 30 }]);
    const started = Date.now();
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const arrivals: number[] = [];
    for await (const _ of stream) arrivals.push(Date.now());
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(4 * 25);
  });

  it('stops writing when the client aborts mid-stream', async () => {
    const client = await clientFor([
      { text: 'x'.repeat(50), chunkSize: 1, chunkDelayMs: 10 },
      { text: 'next' },
    ]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'm', messages, stream: true },
      { signal: controller.signal },
    );
    let seen = 0;
    // The SDK ends the iteration quietly when its own signal aborts.
    for await (const _ of stream) {
      seen += 1;
      if (seen === 3) controller.abort();
    }
    expect(seen).toBe(3);
    // The server survives and answers the next request.
    const next = await client.chat.completions.create({ model: 'm', messages });
    expect(next.choices[0]?.message.content).toBe('next');
  });

  it('records when the client went away mid-stream, and only then', async () => {
    const client = await clientFor([
      { text: 'x'.repeat(50), chunkSize: 1, chunkDelayMs: 20 },
      { text: 'whole' },
      { text: 'streamed whole', chunkSize: 4 },
      { text: 'abcdefghijklmnop', chunkSize: 2, cutAfterEvents: 3 },
    ]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'm', messages, stream: true },
      { signal: controller.signal },
    );
    let abortedAt = 0;
    for await (const _ of stream) {
      if (abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    // Set at all means the client went away before the answer was complete (the order is the point,
    // not how soon: the wait is generous for a loaded machine).
    await expect.poll(() => mock.server?.requests[0]?.closedAt, { timeout: 10_000 }).toBeDefined();
    expect(mock.server?.requests[0]?.closedAt).toBeGreaterThanOrEqual(abortedAt);

    // A completed answer, streamed or not, and a cut by the server leave it unset.
    await client.chat.completions.create({ model: 'm', messages });
    for await (const _ of await client.chat.completions.create({ model: 'm', messages, stream: true })) {
      // drain
    }
    const cut = async () => {
      for await (const _ of await client.chat.completions.create({ model: 'm', messages, stream: true })) {
        // drain
      }
    };
    await expect(cut()).rejects.toThrow();
    expect(mock.server?.requests.slice(1).map((request) => request.closedAt)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('chooses turns with a function of the recorded request', async () => {
    const client = await clientFor((request, index) => ({
      text: `#${index} ${(request.body as { model: string }).model}`,
    }));
    const first = await client.chat.completions.create({ model: 'a', messages });
    const second = await client.chat.completions.create({ model: 'b', messages });
    expect([first.choices[0]?.message.content, second.choices[0]?.message.content]).toEqual(['#0 a', '#1 b']);
  });

  it('rejects a tool call left unanswered like the real API, without using a turn', async () => {
    const client = await clientFor([{ text: 'answered' }]);
    const call = { id: 'call_1', type: 'function' as const, function: { name: 'a', arguments: '{}' } };
    const failure = await client.chat.completions
      .create({
        model: 'm',
        messages: [
          ...messages,
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'user', content: '?' },
        ],
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain('call_1');
    const answered = await client.chat.completions.create({
      model: 'm',
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_1', content: 'done' },
      ],
    });
    expect(answered.choices[0]?.message.content).toBe('answered');
  });

  it('answers a request past the end of the script, and an unknown route, with API errors', async () => {
    const client = await clientFor([]);
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toThrow(/no script turn/);
    await expect(client.embeddings.create({ model: 'm', input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    expect(mock.server?.requests.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/embeddings',
    ]);
  });
});
