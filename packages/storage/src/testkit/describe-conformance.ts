import { describe, it } from 'vitest';
import { CONFORMANCE_GROUPS } from './conformance-cases.js';
import { runConformanceCase } from './run-conformance-case.js';
import type { ConformanceOptions } from './store-factory.js';

/**
 * Registers the whole conformance kit as vitest tests for one backend (like LangGraph's
 * checkpoint-validation). Cases a backend's capabilities rule out are reported as skipped.
 *
 * ```ts
 * describeConversationStoreConformance({ name: 'my-store', factory });
 * ```
 */
export function describeConversationStoreConformance(options: ConformanceOptions): void {
  describe(`ConversationStore conformance: ${options.name}`, () => {
    for (const [group, cases] of Object.entries(CONFORMANCE_GROUPS)) {
      describe(group, () => {
        for (const testCase of cases) {
          it(
            testCase.name,
            async (context) => {
              const outcome = await runConformanceCase(testCase, options);
              if (outcome.status === 'skipped') context.skip(outcome.reason);
            },
            Math.round((testCase.timeoutMs ?? 30_000) * (options.timeoutFactor ?? 1)),
          );
        }
      });
    }
  });
}
