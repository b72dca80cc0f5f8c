import type { AgentOutput } from '@cairn/core';
import { expect, vi } from 'vitest';
import { MALFORMED_SSE_DATA } from '../../script-turn.js';
import { assertWellFormedStream } from '../assert-well-formed-stream.js';
import { collectStream } from '../collect-stream.js';
import type { ModelAdapterConformanceCase } from '../conformance-options.js';
import { conformanceRequest, WEATHER_TOOL } from '../conformance-requests.js';
import { expectCairnError } from '../expect-cairn-error.js';

const REPLY = 'This reply is long enough to be cut off in the middle of a sentence.';
const SLOW_ARGUMENTS = { city: 'Reykjavik', note: 'x'.repeat(200) };
/**
 * How long to wait, after an abort, for the mock server to see the client's connection close: a
 * bound on waiting (generous for a loaded machine), not on speed. That it closed before the answer
 * was complete (about 4 s of streaming) is what shows the abort reached the request.
 */
const DISCONNECT_WAIT_MS = 10_000;

/** Resolves once `done()` holds, or at `deadline` (a `Date.now()` time) if it never does. */
async function waitFor(done: () => boolean, deadline: number): Promise<void> {
  const holds = () => {
    if (!done()) throw new Error('not yet');
  };
  await vi.waitFor(holds, { timeout: Math.max(0, deadline - Date.now()), interval: 10 }).catch(() => {});
}

export const STREAM_FAILURE_CASES: ModelAdapterConformanceCase[] = [
  {
    group: 'stream failures',
    name: 'a stream cut after output is not replayed and ends with an error event and finish error',
    turns: [{ text: REPLY, chunkSize: 3, cutAfterEvents: 5 }, { text: 'A replay must not happen.' }],
    maxRetries: 2,
    async run({ adapter, server }) {
      const { events, result, error } = await collectStream(adapter.stream(conformanceRequest('Talk.')));
      assertWellFormedStream(events);
      expect(
        events.some((event) => event.type === 'text_delta'),
        'output arrived before the cut',
      ).toBe(true);
      expect(events.find((event) => event.type === 'error')).toMatchObject({ fatal: true });
      expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
      expect(result).toBeUndefined();
      expect(error).toBeDefined();
      expect(server.requests, 'never replayed after output').toHaveLength(1);
    },
  },
  {
    group: 'stream failures',
    name: 'malformed SSE data → an LLM_BAD_RESPONSE error event keeping the raw text',
    turns: [{ text: REPLY, chunkSize: 3, malformedAfterEvents: 5 }, { text: 'A replay must not happen.' }],
    maxRetries: 2,
    async run({ adapter, server }) {
      const { events, error } = await collectStream(adapter.stream(conformanceRequest('Talk.')));
      assertWellFormedStream(events);
      const errorEvent = events.find((event) => event.type === 'error');
      expect(errorEvent).toMatchObject({ code: 'LLM_BAD_RESPONSE', fatal: true });
      expect(errorEvent?.type === 'error' ? errorEvent.raw : undefined, 'the raw text is kept').toContain(
        MALFORMED_SSE_DATA,
      );
      expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
      expectCairnError(error, 'LLM_BAD_RESPONSE');
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    group: 'stream failures',
    name: 'abort mid-stream → finish aborted promptly, no dangling tool call',
    // About 4 s to stream in full; the abort must not wait for it, and must cancel the request.
    turns: [
      {
        text: 'Let me look that up.',
        toolCalls: [{ name: WEATHER_TOOL.name, arguments: SLOW_ARGUMENTS }],
        chunkSize: 4,
        chunkDelayMs: 60,
      },
    ],
    async run({ adapter, protocol, server }) {
      const controller = new AbortController();
      // An API sending a call whole, at the end (Gemini): abort while its text streams instead.
      const abortOn = (event: AgentOutput, seen: AgentOutput[]) =>
        protocol.toolArgumentsWhole === true
          ? event.type === 'text_delta' && seen.filter((e) => e.type === 'text_delta').length === 2
          : event.type === 'tool_input_delta';
      const seen: AgentOutput[] = [];
      let abortedAt = 0;
      const { events, error } = await collectStream(
        adapter.stream({ ...conformanceRequest('Weather in Reykjavik?'), signal: controller.signal }),
        (event) => {
          seen.push(event);
          if (abortedAt === 0 && abortOn(event, seen)) {
            abortedAt = Date.now();
            controller.abort();
          }
        },
      );
      expect(abortedAt, 'the stream reached the abort point').toBeGreaterThan(0);
      assertWellFormedStream(events);
      expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'aborted' });
      expect(
        events.filter((event) => event.type === 'tool_use'),
        'the half-streamed tool call is dropped, not closed',
      ).toEqual([]);
      expectCairnError(error, 'LLM_ABORTED');
      // The stream settles on abort by itself; only the server sees whether the SDK request stopped.
      const request = server.requests[0];
      expect(server.requests, 'one request').toHaveLength(1);
      await waitFor(() => request?.closedAt !== undefined, Date.now() + DISCONNECT_WAIT_MS);
      expect(
        request?.closedAt,
        'the server saw the client disconnect mid-stream: the abort signal reached the SDK request',
      ).toBeDefined();
      expect(request?.closedAt, 'the client disconnected after the abort').toBeGreaterThanOrEqual(abortedAt);
    },
  },
];
