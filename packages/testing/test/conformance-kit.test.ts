import { describe, expect, it } from 'vitest';
import {
  describeModelAdapterConformance,
  MODEL_ADAPTER_CONFORMANCE_CASES,
  runModelAdapterConformanceCase,
} from '../src/conformance/index.js';
import { brokenAdapters } from './support/broken-adapters.js';
import { createMinimalOpenAIAdapter } from './support/minimal-openai-adapter.js';

// A correct adapter passes the whole kit...
describeModelAdapterConformance({
  name: 'minimal OpenAI adapter (test/support)',
  provider: 'openai',
  createAdapter: createMinimalOpenAIAdapter,
});

// ...and each broken variant fails the case written for its bug.
const broken = brokenAdapters(createMinimalOpenAIAdapter);
const EXPECTED_FAILURES: Array<[breakage: string, caseName: string, failure?: RegExp]> = [
  ['never emits finish', 'stream yields text deltas closed by one text event, then finish stop'],
  ['leaves text blocks open', 'every started block ends, and finish comes exactly once, last'],
  [
    'does not stream tool-argument deltas',
    'tool-argument deltas arrive as tool_input_delta before their tool_use',
  ],
  ['maps 429 to LLM_UNAVAILABLE', '429 with retry-after → LLM_RATE_LIMITED with retryAfterMs'],
  [
    'replays a stream that failed after output',
    'a stream cut after output is not replayed and ends with an error event and finish error',
  ],
  // These two pass every other check: only the failure named fails them.
  [
    'ignores the abort signal (never passes it to the SDK)',
    'abort mid-stream → finish aborted promptly, no dangling tool call',
    /the server saw the client disconnect/,
  ],
  [
    "reports 'stop' as the raw finish reason of every turn",
    'finish reason is tool_calls exactly when the message has tool calls (stop, length, content_filter)',
    /the provider's own reason is kept/,
  ],
];

describe('the conformance kit fails broken adapters', () => {
  it.each(EXPECTED_FAILURES)('an adapter that %s fails "%s"', async (breakage, caseName, failure) => {
    const testCase = MODEL_ADAPTER_CONFORMANCE_CASES.find((each) => each.name === caseName);
    const createAdapter = broken[breakage];
    expect(testCase, caseName).toBeDefined();
    expect(createAdapter, breakage).toBeDefined();
    if (testCase === undefined || createAdapter === undefined) return;
    await expect(
      runModelAdapterConformanceCase(testCase, { provider: 'openai', createAdapter }),
    ).rejects.toThrow(failure);
  });

  it('names every case uniquely', () => {
    const names = MODEL_ADAPTER_CONFORMANCE_CASES.map((testCase) => testCase.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
