import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationMessageArb, mutationArb } from '../../test/arbitraries.js';
import { CairnError } from '../errors/cairn-error.js';
import { isValidConversationMessage, parseConversationMessage } from './conversation-message.js';
import { OpenAIChatMessageSchema } from './openai-chat-message.js';
import { toOpenAIMessage } from './to-openai-message.js';

describe('ConversationMessage properties', () => {
  it('every generated message is valid', () => {
    fc.assert(fc.property(conversationMessageArb, (message) => isValidConversationMessage(message)));
  });

  it("every valid message's toOpenAIMessage output passes the strict OpenAI-shape schema", () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => {
        const result = OpenAIChatMessageSchema.safeParse(toOpenAIMessage(message));
        if (!result.success) throw new Error(JSON.stringify(result.error.issues));
      }),
    );
  });

  it('toOpenAIMessage keeps role, text and every tool call', () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => {
        const converted = toOpenAIMessage(message);
        expect(converted.role).toBe(message.role);
        if (typeof message.content === 'string') expect(converted.content).toBe(message.content);
        if (converted.role === 'assistant')
          expect(converted.tool_calls ?? []).toEqual(message.tool_calls ?? []);
      }),
    );
  });

  it('parse(serialize(m)) round-trips', () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => {
        expect(parseConversationMessage(JSON.parse(JSON.stringify(message)))).toEqual(message);
      }),
    );
  });

  it('each mutation makes a valid message invalid and the error names the field', () => {
    fc.assert(
      fc.property(conversationMessageArb, mutationArb, (message, mutation) => {
        const broken = mutation.apply({ ...message });
        expect(isValidConversationMessage(broken)).toBe(false);
        expect(() => parseConversationMessage(broken)).toThrow(`at ${mutation.path}:`);
      }),
    );
  });

  it('random junk never throws anything but CairnError', () => {
    const junk = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withSparseArray: true,
      withTypedArray: true,
    });
    // Also near-misses: real messages with one field replaced by junk.
    const nearMiss = fc
      .tuple(
        conversationMessageArb,
        fc.constantFrom('id', 'role', 'content', 'tool_calls', 'createdAt', 'widget', 'seq'),
        junk,
      )
      .map(([message, field, value]) => ({ ...message, [field]: value }));
    fc.assert(
      fc.property(fc.oneof(junk, nearMiss), (value) => {
        try {
          parseConversationMessage(value);
        } catch (error) {
          expect(CairnError.is(error, 'INVALID_MESSAGE')).toBe(true);
        }
        expect(typeof isValidConversationMessage(value)).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});
