import { describe, it } from 'vitest';
import { MODEL_ADAPTER_CONFORMANCE_CASES } from './conformance-cases.js';
import type { ModelAdapterConformanceOptions } from './conformance-options.js';
import { runModelAdapterConformanceCase } from './run-conformance-case.js';

const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Registers the model adapter conformance kit as vitest tests: every case starts a mock server
 * speaking `provider`'s wire protocol and drives an adapter from `createAdapter` through it.
 *
 * ```ts
 * describeModelAdapterConformance({
 *   name: 'openai',
 *   provider: 'openai',
 *   createAdapter: ({ baseURL, apiKey, maxRetries }) =>
 *     createOpenAIAdapter({ model: 'gpt-test', baseURL, apiKey, maxRetries }),
 * });
 * ```
 */
export function describeModelAdapterConformance(options: ModelAdapterConformanceOptions): void {
  const skipped = new Set(options.skip ?? []);
  describe(`ModelAdapter conformance: ${options.name}`, () => {
    const groups = [...new Set(MODEL_ADAPTER_CONFORMANCE_CASES.map((testCase) => testCase.group))];
    for (const group of groups) {
      describe(group, () => {
        for (const testCase of MODEL_ADAPTER_CONFORMANCE_CASES.filter((each) => each.group === group)) {
          const register = skipped.has(testCase.name) ? it.skip : it;
          register(
            testCase.name,
            () => runModelAdapterConformanceCase(testCase, options),
            testCase.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          );
        }
      });
    }
  });
}
