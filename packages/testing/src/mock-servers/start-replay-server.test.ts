import { afterEach, describe, expect, it } from 'vitest';
import type { MockProviderServer } from './start-mock-provider-server.js';
import { startReplayServer } from './start-replay-server.js';

const WHOLE = '{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Hi."}]}';
const STREAMED = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_2"}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
  '',
].join('\n');

const request = (content: string, stream = false) => ({
  model: 'claude-test',
  max_tokens: 100,
  stream,
  messages: [{ role: 'user', content: [{ type: 'text', text: content }] }],
});

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server?.baseURL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('startReplayServer', () => {
  it('answers each request with the next answer, whole as JSON and streamed as its SSE', async () => {
    server = await startReplayServer({ provider: 'anthropic', answers: [WHOLE, STREAMED] });
    const whole = await post(request('Hello'));
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.text)).toEqual(JSON.parse(WHOLE));
    const streamed = await post(request('Again', true));
    expect(streamed.status).toBe(200);
    expect(streamed.text).toBe(STREAMED);
    expect(server.requests.map((recorded) => recorded.body)).toEqual([
      request('Hello'),
      request('Again', true),
    ]);
  });

  it("refuses a request breaking the protocol's rules with the API's 400, recorded, using no answer", async () => {
    server = await startReplayServer({ provider: 'anthropic', answers: [WHOLE] });
    const refused = await post(request(''));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' },
    });
    expect((await post(request('Hello'))).status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('answers unchecked requests when told to', async () => {
    server = await startReplayServer({ provider: 'anthropic', answers: [WHOLE], validateRequests: false });
    expect((await post(request(''))).status).toBe(200);
  });

  it('answers a 400 naming the request once the answers run out', async () => {
    server = await startReplayServer({ provider: 'anthropic', answers: [WHOLE] });
    await post(request('Hello'));
    const extra = await post(request('More'));
    expect(extra.status).toBe(400);
    expect(extra.text).toContain('no answer for request #2 (1 given)');
  });
});
