import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { contentText, type ModelMessage, type ReasoningPart } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVALID_TOOL_ARGUMENTS_KEY } from './anthropic-tool-input.js';
import { convertToAnthropicMessages, LEADING_USER_TEXT } from './convert-to-anthropic-messages.js';

// Text that is sometimes blank, to exercise the "no empty text block" rule.
const textArb = fc.oneof(fc.string(), fc.constantFrom('', ' ', '\n\t'), fc.string({ unit: 'grapheme' }));
const idArb = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);
const jsonObjectArb = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 });
const argumentsArb = fc.oneof(
  jsonObjectArb.map((value) => JSON.stringify(value)),
  fc.constantFrom('', '{"unterminated', '[1]', 'null'),
  fc.string(),
);

const reasoningArb: fc.Arbitrary<ReasoningPart> = fc.oneof(
  fc.record({
    text: fc.string(),
    providerMetadata: fc.record({ anthropic: fc.record({ signature: fc.string() }) }),
  }),
  fc.record({
    text: fc.constant(''),
    redacted: fc.constant(true),
    providerMetadata: fc.record({ anthropic: fc.record({ data: fc.string() }) }),
  }),
  fc.record({
    text: fc.string(),
    providerMetadata: fc.record({ gemini: fc.record({ thoughtSignature: fc.string() }) }),
  }),
  fc.record({ text: fc.string() }),
);

const messageArb: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), content: textArb }),
  fc.record({ role: fc.constant('user' as const), content: textArb }),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(textArb, { nil: null }),
      tool_calls: fc.array(
        fc.record({
          id: idArb,
          type: fc.constant('function' as const),
          function: fc.record({ name: idArb, arguments: argumentsArb }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      reasoning: fc.array(reasoningArb, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    { role: fc.constant('tool' as const), tool_call_id: idArb, content: textArb, isError: fc.boolean() },
    { requiredKeys: ['role', 'tool_call_id', 'content'] },
  ),
);

// At least one message with something to send, so the conversion never refuses.
const conversationArb = fc
  .array(messageArb, { maxLength: 12 })
  .filter((messages) =>
    messages.some(
      (message) =>
        message.role === 'tool' ||
        (message.role === 'assistant' && message.tool_calls !== undefined) ||
        (message.role !== 'system' && contentText(message.content).trim() !== ''),
    ),
  );

const blocksOf = (turns: { content: ContentBlockParam[] }[]) => turns.flatMap((turn) => turn.content);

describe('convertToAnthropicMessages properties', () => {
  it('starts with a user turn and alternates roles', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const turns = convertToAnthropicMessages(messages).messages;
        expect(turns[0]?.role).toBe('user');
        turns.forEach((turn, index) => {
          expect(turn.role).toBe(index % 2 === 0 ? 'user' : 'assistant');
          expect(turn.content.length).toBeGreaterThan(0);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('never sends a blank text block, in system or messages', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const { system = [], messages: turns } = convertToAnthropicMessages(messages);
        for (const block of [...system, ...blocksOf(turns)]) {
          if (block.type === 'text') expect(block.text.trim()).not.toBe('');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps every non-blank text of each role, in order', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const { system = [], messages: turns } = convertToAnthropicMessages(messages);
        const texts = (role: string) =>
          messages
            .filter((message) => message.role === role && contentText(message.content).trim() !== '')
            .map((message) => contentText(message.content));
        const sent = (role: string) =>
          blocksOf(turns.filter((turn) => turn.role === role)).flatMap((block) =>
            block.type === 'text' ? [block.text] : [],
          );
        expect(system.map((block) => block.text)).toEqual(texts('system'));
        // A final (prefill) assistant text loses its trailing whitespace, which the API refuses.
        const assistantTexts = texts('assistant');
        const finalTurnHasText =
          turns.at(-1)?.role === 'assistant' &&
          blocksOf(turns.slice(-1)).some((block) => block.type === 'text');
        const lastText = assistantTexts.at(-1);
        if (finalTurnHasText && lastText != null)
          assistantTexts[assistantTexts.length - 1] = lastText.trimEnd();
        expect(sent('assistant')).toEqual(assistantTexts);
        // The only text added is the placeholder turn before a conversation that starts with the assistant.
        const userTexts = sent('user');
        if (userTexts.length === texts('user').length + 1) {
          expect(turns[0]?.content).toEqual([{ type: 'text', text: LEADING_USER_TEXT }]);
          userTexts.shift();
        }
        expect(userTexts).toEqual(texts('user'));
      }),
      { numRuns: 100 },
    );
  });

  it('sends every tool call as tool_use and every tool result as tool_result, in order, in the right role', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const { messages: turns } = convertToAnthropicMessages(messages);
        const calls = messages.flatMap((message) =>
          message.role === 'assistant' ? (message.tool_calls ?? []) : [],
        );
        const uses = blocksOf(turns.filter((turn) => turn.role === 'assistant')).filter(
          (block) => block.type === 'tool_use',
        );
        expect(uses.map((block) => [block.id, block.name])).toEqual(
          calls.map((c) => [c.id, c.function.name]),
        );

        const results = messages.filter((message) => message.role === 'tool');
        const resultBlocks = blocksOf(turns.filter((turn) => turn.role === 'user')).filter(
          (block) => block.type === 'tool_result',
        );
        expect(resultBlocks.map((block) => [block.tool_use_id, block.is_error === true])).toEqual(
          results.map((result) => [result.tool_call_id, result.isError === true]),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('puts the tool results of a user turn before its other blocks', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        for (const turn of convertToAnthropicMessages(messages).messages) {
          const kinds = turn.content.map((block) => block.type === 'tool_result');
          expect(kinds).toEqual([...kinds].sort((a, b) => Number(b) - Number(a)));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('sends tool input as an object: the parsed arguments, or the raw text under the wrapper key', () => {
    fc.assert(
      fc.property(argumentsArb, (args) => {
        const { messages } = convertToAnthropicMessages([
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: args } }],
          },
        ]);
        const [block] = messages[1]?.content ?? [];
        if (block?.type !== 'tool_use') throw new Error('expected tool_use');
        expect(typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input)).toBe(
          true,
        );
        if (INVALID_TOOL_ARGUMENTS_KEY in (block.input as object)) {
          expect(block.input).toEqual({ [INVALID_TOOL_ARGUMENTS_KEY]: args });
        } else {
          expect(block.input).toEqual(args.trim() === '' ? {} : JSON.parse(args));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('replays exactly the reasoning that carries an Anthropic signature or data', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const { messages: turns } = convertToAnthropicMessages(messages);
        const replayable = messages
          .flatMap((message) => (message.role === 'assistant' ? (message.reasoning ?? []) : []))
          .filter((part) => part.providerMetadata?.anthropic !== undefined);
        const thinking = blocksOf(turns).filter(
          (block) => block.type === 'thinking' || block.type === 'redacted_thinking',
        );
        expect(thinking.length).toBe(replayable.length);
        expect(JSON.stringify(turns)).not.toMatch(/thoughtSignature/);
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic and leaves its input untouched', () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const before = structuredClone(messages);
        const first = convertToAnthropicMessages(messages);
        expect(messages).toEqual(before);
        expect(convertToAnthropicMessages(messages)).toEqual(first);
      }),
      { numRuns: 100 },
    );
  });
});
