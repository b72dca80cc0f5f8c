import { expect } from 'vitest';
import { assertWellFormedStream } from '../assert-well-formed-stream.js';
import { collectStream } from '../collect-stream.js';
import type { ModelAdapterConformanceCase } from '../conformance-options.js';
import { CONFORMANCE_API_KEY, conformanceRequest } from '../conformance-requests.js';

const GREETING = 'Hello from the mock model.';
const STREAMED = 'Streaming text arrives in several pieces.';

export const TEXT_CASES: ModelAdapterConformanceCase[] = [
  {
    group: 'text',
    name: 'generate returns plain text from the non-streaming endpoint, with the key and request headers',
    turns: [{ text: GREETING, usage: { inputTokens: 21, outputTokens: 6 } }],
    async run({ adapter, server }) {
      const result = await adapter.generate(
        conformanceRequest('Say hello.', { headers: { 'x-cairn-conformance': 'generate-text' } }),
      );
      expect(result.message.role).toBe('assistant');
      expect(result.message.content).toBe(GREETING);
      expect(result.message.tool_calls ?? []).toEqual([]);
      expect(result.finishReason).toBe('stop');
      const [request] = server.requests;
      expect(server.requests).toHaveLength(1);
      expect(request?.stream, 'generate uses the non-streaming endpoint').toBe(false);
      expect(request?.headers['x-cairn-conformance'], 'ModelRequest.headers are sent').toBe('generate-text');
      expect(Object.values(request?.headers ?? {}).some((value) => value.includes(CONFORMANCE_API_KEY))).toBe(
        true,
      );
    },
  },
  {
    group: 'text',
    name: 'stream yields text deltas closed by one text event, then finish stop',
    turns: [{ text: STREAMED, chunkSize: 5 }],
    async run({ adapter, server }) {
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Stream something.')));
      assertWellFormedStream(events);
      const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
      expect(deltas.length, 'text arrives in several deltas').toBeGreaterThan(1);
      expect(deltas.join('')).toBe(STREAMED);
      expect(events.filter((event) => event.type === 'text').map((event) => event.text)).toEqual([STREAMED]);
      expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
      expect(result?.message.content).toBe(STREAMED);
      expect(result?.finishReason).toBe('stop');
      expect(server.requests[0]?.stream, 'stream uses the streaming endpoint').toBe(true);
    },
  },
  {
    group: 'text',
    name: 'usage is reported by generate and stream (input, output, cache reads)',
    turns: [0, 1].map(() => ({
      text: 'Counting tokens.',
      usage: { inputTokens: 120, outputTokens: 9, cacheReadTokens: 100 },
    })),
    async run({ adapter }) {
      const expected = { inputTokens: 120, outputTokens: 9, cacheReadTokens: 100 };
      const generated = await adapter.generate(conformanceRequest('Count.'));
      expect(generated.usage).toMatchObject(expected);
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Count.')));
      assertWellFormedStream(events);
      const usageEvents = events.filter((event) => event.type === 'usage');
      expect(usageEvents.length, 'the stream reports usage').toBeGreaterThan(0);
      expect(usageEvents.at(-1)?.usage).toMatchObject(expected);
      expect(result?.usage).toMatchObject(expected);
    },
  },
];
