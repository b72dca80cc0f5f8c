import { propertyTimeout } from '@cairn/vitest-config/load';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentOutputArb,
  conversationMessageArb,
  mutationArb,
  nearMissMessageArb,
} from '../test/arbitraries.js';
import { agentOutputJsonSchema, conversationMessageJsonSchema } from './json-schema.js';
import { isValidConversationMessage } from './messages/conversation-message.js';
import { MAX_MESSAGE_DEPTH } from './messages/parse-message-for-storage.js';

// A real JSON Schema validator stands in for a non-TypeScript consumer.
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const validateMessage = ajv.compile(conversationMessageJsonSchema());
const validateEvent = ajv.compile(agentOutputJsonSchema());

describe('JSON Schema exports', () => {
  it('accepts the seed messages', () => {
    const createdAt = '2026-01-18T00:00:00Z';
    for (const message of [
      { id: '1', role: 'user', content: 'Hello', createdAt },
      {
        id: '2',
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
        createdAt,
      },
      { id: '3', role: 'tool', content: 'file contents here', tool_call_id: 'call_1', createdAt },
      {
        id: '100',
        role: 'assistant',
        content: 'Hello world',
        createdAt: '2025-01-01T00:00:00Z',
        partType: 'content',
      },
    ]) {
      expect(validateMessage(message), JSON.stringify(validateMessage.errors)).toBe(true);
    }
  });

  it('agrees with the TypeScript validator on valid messages', () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => validateMessage(message) === true),
      { numRuns: 100 },
    );
  });

  it('agrees with the TypeScript validator on invalid messages, role rules included', () => {
    fc.assert(
      fc.property(conversationMessageArb, mutationArb, (message, mutation) => {
        expect(validateMessage(mutation.apply({ ...message })), mutation.label).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it(
    'gives the same verdict as the TypeScript validator on near-miss messages (one field set to random JSON)',
    () => {
      fc.assert(
        fc.property(nearMissMessageArb, (value) => {
          expect(validateMessage(value), JSON.stringify(value)).toBe(isValidConversationMessage(value));
        }),
        { numRuns: 2000 },
      );
    },
    propertyTimeout(30_000),
  );

  it('allows fields added by newer versions', () => {
    expect(
      validateMessage({
        id: '1',
        role: 'user',
        content: 'x',
        createdAt: '2026-01-18T00:00:00Z',
        futureField: 1,
      }),
    ).toBe(true);
  });

  it("states the stores' nesting limit, which JSON Schema cannot express", () => {
    expect(conversationMessageJsonSchema().$comment).toContain(`${MAX_MESSAGE_DEPTH} levels`);
  });

  it('accepts every generated AgentOutput event and rejects an unknown type', () => {
    fc.assert(
      fc.property(agentOutputArb, (event) => validateEvent(event) === true),
      { numRuns: 100 },
    );
    expect(validateEvent({ type: 'telepathy', timestamp: '2026-01-18T00:00:00Z' })).toBe(false);
  });
});
