import { readFileSync } from 'node:fs';
import type { ModelMessage } from '@cairn/core';
import { type MockProviderServer, startReplayServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from '../src/index.js';

// Responses written from Google's documented examples (see __fixtures__/gemini-docs/README.md),
// replayed through the real SDK on a Gemini 3 model: the streamed ones by the Gemini mock, the
// whole ones by a replay server that checks each request with the mock's rules. Every request the
// adapter sends back must keep each signature byte for byte where Gemini put it.

const MODEL = 'gemini-3-pro-preview';
const fixture = (name: string) =>
  readFileSync(new URL(`__fixtures__/gemini-docs/${name}`, import.meta.url), 'utf8');

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const TOOLS = [
  {
    name: 'check_flight',
    description: 'The status of a flight',
    inputSchema: { type: 'object', properties: { flight: { type: 'string' } }, required: ['flight'] },
  },
  {
    name: 'book_taxi',
    description: 'Books a taxi',
    inputSchema: { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] },
  },
];

describe('Google’s documented thought-signature examples', () => {
  it('sequential calls: each step’s signature goes back byte for byte, whole and streamed', async () => {
    const json = await startReplayServer({
      provider: 'gemini',
      answers: [fixture('check-flight-step1.json')],
    });
    const mock: MockProviderServer = await startReplayServer({
      provider: 'gemini',
      answers: [fixture('check-flight-step2.sse'), fixture('check-flight-step3.sse')],
    });
    closers.push(json.close, () => mock.close());
    const options = { model: MODEL, apiKey: 'test-key', maxRetries: 0 };
    const whole = createGeminiAdapter({ ...options, baseURL: json.baseURL });
    const streamed = createGeminiAdapter({ ...options, baseURL: mock.baseURL });

    const messages: ModelMessage[] = [
      { role: 'user', content: 'Check flight status for AA100 and book a taxi 2 hours before if delayed.' },
    ];
    const first = await whole.generate({ messages, tools: TOOLS });
    const [check] = first.message.tool_calls ?? [];
    expect(check?.function).toEqual({ name: 'check_flight', arguments: '{"flight":"AA100"}' });
    expect(first.message.providerMetadata).toEqual({
      gemini: { [check?.id ?? '']: { thoughtSignature: 'U2lnbmF0dXJlX0E=' } },
    });
    expect(first.usage).toMatchObject({
      inputTokens: 74,
      outputTokens: 81,
      reasoningTokens: 65,
      totalTokens: 155,
    });
    messages.push(first.message, {
      role: 'tool',
      tool_call_id: check?.id ?? '',
      content: '{"status":"delayed","departure_time":"12 PM"}',
    });

    const second = await streamed.stream({ messages, tools: TOOLS }).result;
    const [taxi] = second.message.tool_calls ?? [];
    expect(taxi?.function).toEqual({ name: 'book_taxi', arguments: '{"time":"10 AM"}' });
    messages.push(second.message, {
      role: 'tool',
      tool_call_id: taxi?.id ?? '',
      content: '{"booking_status":"success"}',
    });

    const stream = streamed.stream({ messages, tools: TOOLS });
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.delta);
    const third = await stream.result;
    expect(deltas.join('')).toBe(
      'Flight AA100 is delayed and now departs at 12 PM. I booked a taxi for 10 AM.',
    );
    // The answer's signature came on an empty text part at the end: kept on the message.
    expect(third.message.providerMetadata).toEqual({ gemini: { thoughtSignature: 'U2lnbmF0dXJlX0M=' } });
    expect(third.usage).toMatchObject({ cacheReadTokens: 64, reasoningTokens: 40, outputTokens: 64 });

    // Both steps of the current turn went back signed, exactly where Gemini put the signatures.
    const last = mock.requests[1]?.body as { contents: unknown[] };
    expect(last.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'check_flight', args: { flight: 'AA100' } },
            thoughtSignature: 'U2lnbmF0dXJlX0E=',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'check_flight',
              response: { content: '{"status":"delayed","departure_time":"12 PM"}' },
            },
          },
        ],
      },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'book_taxi', args: { time: '10 AM' } },
            thoughtSignature: 'U2lnbmF0dXJlX0I=',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'book_taxi', response: { content: '{"booking_status":"success"}' } } },
        ],
      },
    ]);
  });

  it('parallel calls: only the first carries a signature, and goes back with it; without it Gemini 3 refuses', async () => {
    const answer = fixture('weather-parallel.json');
    const json = await startReplayServer({
      provider: 'gemini',
      answers: [
        answer,
        '{"candidates":[{"content":{"role":"model","parts":[{"text":"Paris 15°C, London 12°C."}]},"finishReason":"STOP"}]}',
      ],
    });
    closers.push(json.close);
    const adapter = createGeminiAdapter({
      model: MODEL,
      apiKey: 'test-key',
      baseURL: json.baseURL,
      maxRetries: 0,
    });
    const tools = [
      {
        name: 'get_current_temperature',
        description: 'The current temperature',
        inputSchema: { type: 'object', properties: { location: { type: 'string' } } },
      },
    ];
    const messages: ModelMessage[] = [{ role: 'user', content: 'Check the weather in Paris and London.' }];
    const first = await adapter.generate({ messages, tools });
    const [paris, london] = first.message.tool_calls ?? [];
    expect(first.message.providerMetadata).toEqual({
      gemini: { [paris?.id ?? '']: { thoughtSignature: 'U2lnbmF0dXJlX0E=' } },
    });
    const results: ModelMessage[] = [
      { role: 'tool', tool_call_id: paris?.id ?? '', content: '15°C' },
      { role: 'tool', tool_call_id: london?.id ?? '', content: '12°C' },
    ];
    const answered = await adapter.generate({ messages: [...messages, first.message, ...results], tools });
    expect(answered.message.content).toBe('Paris 15°C, London 12°C.');
    expect(
      (json.requests[1]?.body as { contents: Array<{ parts: unknown[] }> } | undefined)?.contents[1]?.parts,
    ).toEqual([
      {
        functionCall: { name: 'get_current_temperature', args: { location: 'Paris' } },
        thoughtSignature: 'U2lnbmF0dXJlX0E=',
      },
      { functionCall: { name: 'get_current_temperature', args: { location: 'London' } } },
    ]);
    // The same history without the signature (as after another provider) is what Gemini 3 refuses.
    const { providerMetadata: _dropped, ...unsigned } = first.message;
    await expect(
      adapter.generate({ messages: [...messages, unsigned, ...results], tools }),
    ).rejects.toMatchObject({
      code: 'LLM_BAD_REQUEST',
      message: expect.stringContaining('Function call is missing a thought_signature'),
    });
  });
});
