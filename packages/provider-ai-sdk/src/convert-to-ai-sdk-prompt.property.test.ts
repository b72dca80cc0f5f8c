import { contentText, type ModelMessage, type ReasoningPart } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertToAiSdkPrompt } from './convert-to-ai-sdk-prompt.js';

const PROVIDER = 'mock.chat';
const idArb = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);
const argumentsArb = fc.oneof(
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }).map((value) => JSON.stringify(value)),
  fc.string(),
);
const reasoningArb: fc.Arbitrary<ReasoningPart> = fc.oneof(
  fc.record({
    text: fc.string(),
    providerMetadata: fc.constant({ [PROVIDER]: { anthropic: { signature: 's' } } }),
  }),
  fc.record({ text: fc.string(), providerMetadata: fc.constant({ other: { signature: 's' } }) }),
  fc.record({ text: fc.string() }),
);
const messageArb: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), content: fc.string() }),
  fc.record({
    role: fc.constant('user' as const),
    content: fc.oneof(
      fc.string(),
      fc.array(fc.record({ type: fc.constant('text' as const), text: fc.string() })),
    ),
  }),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(fc.string(), { nil: null }),
      tool_calls: fc.array(
        fc.record({
          id: idArb,
          type: fc.constant('function' as const),
          function: fc.record({ name: idArb, arguments: argumentsArb }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      reasoning: fc.array(reasoningArb, { maxLength: 3 }),
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    { role: fc.constant('tool' as const), tool_call_id: idArb, content: fc.string(), isError: fc.boolean() },
    { requiredKeys: ['role', 'tool_call_id', 'content'] },
  ),
);
const versionArb = fc.constantFrom('v2' as const, 'v3' as const, 'v4' as const);

type AnyPart = { type: string } & Record<string, unknown>;
const partsOf = (prompt: ReturnType<typeof convertToAiSdkPrompt>) =>
  prompt.flatMap((message) =>
    typeof message.content === 'string' ? [] : (message.content as unknown as AnyPart[]),
  );

describe('convertToAiSdkPrompt (properties)', () => {
  it('loses no message, text, tool call or tool result, and pairs each result with its call', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 12 }), versionArb, (messages, version) => {
        const prompt = convertToAiSdkPrompt(messages, { version, provider: PROVIDER });
        const parts = partsOf(prompt);
        // Consecutive tool results share one message; every other message is one message.
        const expectedMessages = messages.filter(
          (message, index) => message.role !== 'tool' || messages[index - 1]?.role !== 'tool',
        ).length;
        expect(prompt).toHaveLength(expectedMessages);

        const calls = messages.flatMap((message) =>
          message.role === 'assistant' ? (message.tool_calls ?? []) : [],
        );
        const toolCalls = parts.filter((part) => part.type === 'tool-call');
        expect(toolCalls.map((part) => [part.toolCallId, part.toolName])).toEqual(
          calls.map((call) => [call.id, call.function.name]),
        );
        const results = messages.filter((message) => message.role === 'tool');
        const toolResults = parts.filter((part) => part.type === 'tool-result');
        expect(toolResults.map((part) => part.toolCallId)).toEqual(
          results.map((message) => message.tool_call_id),
        );
        // A result names the tool of the last call with its id before it (the AI SDK needs the
        // name); a result before any such call has none.
        const named = new Map<string, string>();
        const expectedNames: string[] = [];
        for (const message of messages) {
          if (message.role === 'assistant')
            for (const call of message.tool_calls ?? []) named.set(call.id, call.function.name);
          if (message.role === 'tool') expectedNames.push(named.get(message.tool_call_id) ?? '');
        }
        expect(toolResults.map((part) => part.toolName)).toEqual(expectedNames);
        // User and assistant messages keep their order, and their text.
        const spoken = messages.filter((message) => message.role === 'user' || message.role === 'assistant');
        const converted = prompt.filter((message) => message.role === 'user' || message.role === 'assistant');
        expect(converted.map((message) => message.role)).toEqual(spoken.map((message) => message.role));
        converted.forEach((message, index) => {
          const text = (message.content as unknown as AnyPart[])
            .filter((part) => part.type === 'text')
            .map((part) => part.text)
            .join('\n');
          expect(text).toBe(contentText(spoken[index]?.content));
        });
      }),
    );
  });

  it('replays exactly the reasoning this provider wrote, with its data as providerOptions', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 12 }), versionArb, (messages, version) => {
        const parts = partsOf(convertToAiSdkPrompt(messages, { version, provider: PROVIDER }));
        const own = messages.flatMap((message) =>
          message.role === 'assistant'
            ? (message.reasoning ?? []).filter((part) => part.providerMetadata?.[PROVIDER] !== undefined)
            : [],
        );
        expect(parts.filter((part) => part.type === 'reasoning')).toEqual(
          own.map((part) => ({
            type: 'reasoning',
            text: part.text,
            providerOptions: part.providerMetadata?.[PROVIDER],
          })),
        );
      }),
    );
  });
});
