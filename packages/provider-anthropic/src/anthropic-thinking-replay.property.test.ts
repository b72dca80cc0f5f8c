import type { ModelMessage } from '@cairn/core';
import { anthropicRequestProblem, anthropicThinkingSignature } from '@cairn/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './build-anthropic-request.js';

// Who made an assistant step's reasoning: Anthropic (signed as the mock signs), another provider, or none.
const reasoningArb = fc.constantFrom('anthropic', 'foreign', 'none');
const stepArb = fc.record({ reasoning: reasoningArb, calls: fc.integer({ min: 0, max: 2 }) });
// A round ends at the first step without calls, or open, after its last step's tool results.
const roundArb = fc.record({ steps: fc.array(stepArb, { minLength: 1, maxLength: 3 }) });

function round(steps: { reasoning: string; calls: number }[], prompt: string): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
  for (const [index, step] of steps.entries()) {
    const text = `thought ${index}`;
    const reasoning =
      step.reasoning === 'anthropic'
        ? [{ text, providerMetadata: { anthropic: { signature: anthropicThinkingSignature(text) } } }]
        : step.reasoning === 'foreign'
          ? [{ text, providerMetadata: { google: { thoughtSignature: 'g' } } }]
          : undefined;
    const calls = Array.from({ length: step.calls }, (_, call) => `${prompt}:${index}:${call}`);
    messages.push({
      role: 'assistant',
      content: calls.length === 0 ? `answer ${index}` : '',
      ...(reasoning === undefined ? {} : { reasoning }),
      ...(calls.length === 0
        ? {}
        : {
            tool_calls: calls.map((id) => ({
              id,
              type: 'function' as const,
              function: { name: 'read', arguments: '{}' },
            })),
          }),
    });
    for (const id of calls) messages.push({ role: 'tool', tool_call_id: id, content: 'ok' });
    if (calls.length === 0) break;
  }
  return messages;
}

describe('thinking across tool loops, whoever made them', () => {
  it('builds requests with thinking enabled that the mock of the Messages API accepts', () => {
    fc.assert(
      fc.property(fc.array(roundArb, { minLength: 1, maxLength: 3 }), (rounds) => {
        const messages = rounds.flatMap((each, index) => round(each.steps, `prompt ${index}`));
        const body = buildAnthropicRequest(
          {
            messages,
            providerOptions: { anthropic: { thinking: { type: 'enabled', budget_tokens: 1024 } } },
          },
          { model: 'claude-test', maxOutputTokens: 2048 },
        );
        expect(anthropicRequestProblem(body)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
