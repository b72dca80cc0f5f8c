import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anyJsValue,
  conversationMessageArb,
  mutationArb,
  nearMissMessageArb,
} from '../../test/arbitraries.js';
import { CairnError } from '../errors/cairn-error.js';
import {
  type ConversationMessage,
  ConversationMessageSchema,
  isDisplayOnlyMessage,
  isValidConversationMessage,
  parseConversationMessage,
} from './conversation-message.js';
import { ModelMessageSchema } from './model-message.js';
import { OpenAIChatMessageSchema } from './openai-chat-message.js';
import { toModelMessage } from './to-model-message.js';
import { toOpenAIMessage } from './to-openai-message.js';

// Display-only messages are refused by the converters (tested below); the rest must convert.
const sendable = conversationMessageArb.filter((message) => !isDisplayOnlyMessage(message));

function expectSchema(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${JSON.stringify(value)}\n${String(result.error)}`);
}

describe('ConversationMessage properties', () => {
  it('every generated message is valid', () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => isValidConversationMessage(message)),
      { numRuns: 100 },
    );
  });

  it("every sendable message's toOpenAIMessage output passes the strict OpenAI schema", () => {
    fc.assert(
      fc.property(sendable, (message) => expectSchema(OpenAIChatMessageSchema, toOpenAIMessage(message))),
      { numRuns: 100 },
    );
  });

  it("every sendable message's toModelMessage output passes the strict ModelMessage schema", () => {
    fc.assert(
      fc.property(sendable, (message) => expectSchema(ModelMessageSchema, toModelMessage(message))),
      { numRuns: 100 },
    );
  });

  it('toModelMessage is toOpenAIMessage plus only the replay fields', () => {
    fc.assert(
      fc.property(sendable, (message) => {
        const {
          reasoning: _,
          isError: __,
          providerMetadata: ___,
          ...protocol
        } = toModelMessage(message) as Record<string, unknown>;
        expect(protocol).toEqual(toOpenAIMessage(message));
      }),
      { numRuns: 100 },
    );
  });

  it('the converters keep role, text and every tool call', () => {
    fc.assert(
      fc.property(sendable, (message) => {
        const converted = toOpenAIMessage(message);
        expect(converted.role).toBe(message.role);
        if (typeof message.content === 'string') expect(converted.content).toBe(message.content);
        if (converted.role === 'assistant')
          expect(converted.tool_calls ?? []).toEqual(message.tool_calls ?? []);
      }),
      { numRuns: 100 },
    );
  });

  it('the converters refuse every display-only message', () => {
    const display = conversationMessageArb.map(
      (message) =>
        ({
          ...message,
          partType: message.seq === undefined ? 'thinking' : 'tool_execution',
        }) as ConversationMessage,
    );
    fc.assert(
      fc.property(display, (message) => {
        expect(() => toOpenAIMessage(message)).toThrow(/display-only/);
        expect(() => toModelMessage(message)).toThrow(/display-only/);
      }),
      { numRuns: 100 },
    );
  });

  it('parse(serialize(m)) round-trips, and the schema knows every generated field', () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => {
        const reloaded = JSON.parse(JSON.stringify(message));
        expect(parseConversationMessage(reloaded)).toEqual(message);
        // zod's own output drops keys it does not know: equal output means no field went unchecked.
        expect(ConversationMessageSchema.parse(reloaded)).toEqual(message);
      }),
      { numRuns: 100 },
    );
  });

  it('each mutation makes a valid message invalid and the error names the field', () => {
    fc.assert(
      fc.property(conversationMessageArb, mutationArb, (message, mutation) => {
        const broken = mutation.apply({ ...message });
        expect(isValidConversationMessage(broken)).toBe(false);
        expect(() => parseConversationMessage(broken)).toThrow(`at ${mutation.path}:`);
      }),
      { numRuns: 100 },
    );
  });

  it('random junk, and messages with one field replaced by junk, never throw anything but CairnError', () => {
    const junk = anyJsValue();
    const nearMiss = fc
      .tuple(
        conversationMessageArb,
        fc.constantFrom('id', 'role', 'content', 'tool_calls', 'createdAt', 'widget', 'seq'),
        junk,
      )
      .map(([message, field, value]) => ({ ...message, [field]: value }));
    fc.assert(
      fc.property(fc.oneof(junk, nearMiss, nearMissMessageArb), (value) => {
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
