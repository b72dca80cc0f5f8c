import { acceptsMediaType, type ModelAdapter, type ModelCapabilities } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fallbackCapabilities } from './create-fallback-model.js';

const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'text/plain', 'audio/wav'];
const PATTERNS = [...MEDIA_TYPES, 'image/*', 'application/*', 'audio/*'];

const capabilities: fc.Arbitrary<ModelCapabilities> = fc.record(
  {
    streaming: fc.boolean(),
    toolCalls: fc.boolean(),
    parallelToolCalls: fc.boolean(),
    reasoning: fc.boolean(),
    inputMediaTypes: fc.uniqueArray(fc.constantFrom(...PATTERNS), { maxLength: 4 }),
    structuredOutput: fc.boolean(),
    contextWindowTokens: fc.integer({ min: 1, max: 2_000_000 }),
    maxOutputTokens: fc.integer({ min: 1, max: 200_000 }),
  },
  { requiredKeys: ['streaming', 'toolCalls', 'parallelToolCalls', 'reasoning'] },
);

const adapter = (caps: ModelCapabilities, index: number): ModelAdapter => ({
  provider: `p${index}`,
  modelId: `m${index}`,
  capabilities: caps,
  generate: () => Promise.reject(new Error('not called')),
  stream: () => {
    throw new Error('not called');
  },
});

describe('fallbackCapabilities', () => {
  it('promises only what every model of the chain does, and says reasoning when any model reasons', () => {
    fc.assert(
      fc.property(fc.array(capabilities, { minLength: 1, maxLength: 4 }), (all) => {
        const chain = fallbackCapabilities(all.map(adapter));
        for (const flag of ['streaming', 'toolCalls', 'parallelToolCalls', 'structuredOutput'] as const) {
          expect(chain[flag] === true).toBe(all.every((caps) => caps[flag] === true));
        }
        expect(chain.reasoning).toBe(all.some((caps) => caps.reasoning));
        for (const type of MEDIA_TYPES) {
          const everyModel = all.every((caps) => acceptsMediaType(caps.inputMediaTypes ?? [], type));
          expect(acceptsMediaType(chain.inputMediaTypes ?? [], type)).toBe(everyModel);
        }
        for (const limit of ['contextWindowTokens', 'maxOutputTokens'] as const) {
          const known = all.every((caps) => caps[limit] !== undefined);
          expect(chain[limit]).toBe(
            known ? Math.min(...all.map((caps) => caps[limit] as number)) : undefined,
          );
        }
      }),
    );
  });
});
