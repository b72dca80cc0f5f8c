import { describe, expect, it } from 'vitest';
import { MALFORMED_SSE_DATA } from '../script-turn.js';
import type { MockProviderProtocol, MockStreamFraming } from './mock-provider-protocol.js';
import { mockServerPerTest } from './mock-server-per-test.js';
import { openAIMockProtocol } from './openai-mock-server.js';

const mock = mockServerPerTest();

// A made-up API: POST /chat?framing=<framing>, one frame per text piece then a `done` frame.
const toyProtocol: MockProviderProtocol = {
  provider: 'toy',
  baseUrlPath: '/api',
  rawFinishReasons: { stop: 'done', tool_calls: 'tools', length: 'cut', content_filter: 'blocked' },
  route(method, path, query, body) {
    if (method !== 'POST' || path !== '/api/chat') return undefined;
    const framing = (query.get('framing') ?? 'ndjson') as MockStreamFraming;
    return { stream: (body as { stream?: boolean }).stream === true, framing, model: 'toy-1' };
  },
  toolCallId: (requestIndex, callIndex) => `toy_${requestIndex}_${callIndex}`,
  response: ({ turn }) => ({ text: turn.text, finish: toyProtocol.rawFinishReasons[turn.finish] }),
  streamFrames: ({ turn }) => [
    ...[...(turn.text ?? '')].map((piece) => ({ data: JSON.stringify({ delta: piece }) })),
    { data: JSON.stringify({ finish: toyProtocol.rawFinishReasons[turn.finish] }) },
  ],
  errorBody: ({ status, message }) => ({ failure: { status, message: message ?? 'toy failure' } }),
};

async function post(framing: MockStreamFraming, stream = true): Promise<Response> {
  const server = mock.server;
  if (server === undefined) throw new Error('no server');
  return fetch(`${server.baseURL}/chat?framing=${framing}`, {
    method: 'POST',
    body: JSON.stringify({ stream }),
  });
}

describe('startMockProviderServer with a protocol object', () => {
  it('streams NDJSON: one JSON value per line, with its content type', async () => {
    await mock.start({ provider: toyProtocol, turns: [{ text: 'Hi!' }] });
    const response = await post('ndjson');
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).toEqual(['{"delta":"H"}', '{"delta":"i"}', '{"delta":"!"}', '{"finish":"done"}', '']);
    expect(mock.server?.provider).toBe('toy');
    expect(mock.server?.requests[0]).toMatchObject({ path: '/api/chat', stream: true });
  });

  it("streams a plain chunked body: each frame's data as is", async () => {
    await mock.start({ provider: toyProtocol, turns: [{ text: 'ab' }] });
    const response = await post('chunked');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('{"delta":"a"}{"delta":"b"}{"finish":"done"}');
  });

  it('streams SSE and JSON arrays too, and answers JSON when not streaming', async () => {
    await mock.start({ provider: toyProtocol, turns: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    expect(await (await post('sse')).text()).toBe('data: {"delta":"a"}\n\ndata: {"finish":"done"}\n\n');
    expect(await (await post('json-array')).json()).toEqual([{ delta: 'b' }, { finish: 'done' }]);
    expect(await (await post('ndjson', false)).json()).toEqual({ text: 'c', finish: 'done' });
  });

  it("applies the script's faults with the protocol's own error body", async () => {
    await mock.start({
      provider: toyProtocol,
      turns: [
        { fault: { status: 429, message: 'slow down', retryAfterSeconds: 2 } },
        { text: 'abcdef', cutAfterEvents: 2 },
        { text: 'abc', malformedAfterEvents: 1 },
      ],
    });
    const limited = await post('ndjson');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.json()).toEqual({ failure: { status: 429, message: 'slow down' } });
    await expect((await post('ndjson')).text(), 'a cut ends the body with a network error').rejects.toThrow();
    expect(await (await post('ndjson')).text()).toBe(`{"delta":"a"}\n${MALFORMED_SSE_DATA}\n`);
  });

  it("answers an unknown route 404 with the protocol's error body", async () => {
    const server = await mock.start({ provider: toyProtocol, turns: [] });
    const response = await fetch(`${server.origin}/elsewhere`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      failure: { status: 404, message: 'mock server: no route /elsewhere' },
    });
  });

  it('takes a built-in protocol as an object the same as by name', async () => {
    const server = await mock.start({ provider: openAIMockProtocol, turns: [{ text: 'Hi' }] });
    expect(server.provider).toBe('openai');
    expect(server.baseURL).toBe(`${server.origin}/v1`);
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'Hi' } }] });
  });
});
