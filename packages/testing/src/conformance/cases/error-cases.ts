import type { CairnErrorCode, ModelAdapter } from '@cairn/core';
import { expect } from 'vitest';
import type { ScriptFault } from '../../script-turn.js';
import { assertWellFormedStream } from '../assert-well-formed-stream.js';
import { collectStream } from '../collect-stream.js';
import type { ModelAdapterConformanceCase } from '../conformance-options.js';
import { conformanceRequest } from '../conformance-requests.js';
import { expectCairnError, rejectionOf } from '../expect-cairn-error.js';

interface ExpectedFailure {
  code: CairnErrorCode;
  retryable: boolean;
  retryAfterMs?: number;
  status: number;
}

/** generate rejects with the error; stream ends with a fatal error event, finish `error`, and rejects `result`. */
async function expectFailure(adapter: ModelAdapter, expected: ExpectedFailure): Promise<void> {
  const request = conformanceRequest('Fail, please.');
  const error = expectCairnError(await rejectionOf(adapter.generate(request)), expected.code);
  expect(error.retryable, 'retry advice').toBe(expected.retryable);
  expect(error.retryAfterMs).toBe(expected.retryAfterMs);
  expect(error.details, 'the HTTP status is kept in details').toMatchObject({ status: expected.status });

  const { events, result, error: streamError } = await collectStream(adapter.stream(request));
  assertWellFormedStream(events);
  expect(result, 'the stream result rejects').toBeUndefined();
  expectCairnError(streamError, expected.code);
  const errorEvent = events.find((event) => event.type === 'error');
  expect(errorEvent).toMatchObject({ code: expected.code, retryable: expected.retryable, fatal: true });
  if (expected.retryAfterMs !== undefined)
    expect(errorEvent).toMatchObject({ retryAfterMs: expected.retryAfterMs });
  expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
}

function faultCase(
  name: string,
  fault: ScriptFault,
  expected: ExpectedFailure,
  maxRetries: number,
): ModelAdapterConformanceCase {
  return {
    group: 'errors',
    name,
    turns: [{ fault }, { fault }],
    maxRetries,
    async run({ adapter, server }) {
      await expectFailure(adapter, expected);
      expect(server.requests, 'one request per call: not retried').toHaveLength(2);
    },
  };
}

const RETRY_AFTER_MS = 1200;

export const ERROR_CASES: ModelAdapterConformanceCase[] = [
  faultCase(
    '401 → LLM_AUTH, not retryable and not retried',
    { status: 401 },
    { code: 'LLM_AUTH', retryable: false, status: 401 },
    2,
  ),
  faultCase(
    '429 with retry-after → LLM_RATE_LIMITED with retryAfterMs',
    { status: 429, retryAfterSeconds: 7 },
    { code: 'LLM_RATE_LIMITED', retryable: true, retryAfterMs: 7000, status: 429 },
    0,
  ),
  faultCase(
    '500 → LLM_UNAVAILABLE, retryable',
    { status: 500 },
    { code: 'LLM_UNAVAILABLE', retryable: true, status: 500 },
    0,
  ),
  faultCase(
    "the provider's context-length error → LLM_CONTEXT_OVERFLOW, not retried",
    { status: 400, contextOverflow: true },
    { code: 'LLM_CONTEXT_OVERFLOW', retryable: false, status: 400 },
    2,
  ),
  {
    group: 'errors',
    name: 'a 429 then success is retried after retry-after-ms and succeeds (generate and stream)',
    turns: [0, 1].flatMap(() => [
      { fault: { status: 429, retryAfterMs: RETRY_AFTER_MS } },
      { text: 'Recovered.' },
    ]),
    maxRetries: 2,
    timeoutMs: 30_000,
    async run({ adapter, server }) {
      // Longer than any default first backoff, so only an honoured retry-after-ms explains the wait.
      const started = Date.now();
      const generated = await adapter.generate(conformanceRequest('Retry me.'));
      expect(generated.message.content).toBe('Recovered.');
      expect(Date.now() - started, 'waited retry-after-ms').toBeGreaterThanOrEqual(RETRY_AFTER_MS - 50);
      expect(server.requests).toHaveLength(2);
      const streamStarted = Date.now();
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Retry me.')));
      assertWellFormedStream(events);
      expect(result?.message.content).toBe('Recovered.');
      expect(
        events.some((event) => event.type === 'error'),
        'a retried failure is not reported',
      ).toBe(false);
      expect(Date.now() - streamStarted, 'waited retry-after-ms').toBeGreaterThanOrEqual(RETRY_AFTER_MS - 50);
      expect(server.requests).toHaveLength(4);
    },
  },
];
