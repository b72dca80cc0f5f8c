import type { AgentOutput, ConversationMessage } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamedAnswerText } from './streamed-answer-text.js';

const timestamp = '2026-01-01T00:00:00.000Z';
const delta = (id: string, text: string): AgentOutput => ({ type: 'text_delta', timestamp, id, delta: text });
const whole = (id: string, text: string): AgentOutput => ({ type: 'text', timestamp, id, text });
const answer = (content: string | null): ConversationMessage => ({
  id: 'm2',
  role: 'assistant',
  createdAt: timestamp,
  content,
  seq: 2,
});

describe('StreamedAnswerText', () => {
  it('leaves out the closing text event and the content that repeat the deltas, however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1 }), { minLength: 1 }), (pieces) => {
        const streamed = new StreamedAnswerText();
        for (const piece of pieces) expect(streamed.add(delta('t', piece))).toBe(true);
        expect(streamed.add(whole('t', pieces.join('')))).toBe(false);
        expect(streamed.withoutStreamedText(answer(pieces.join('')))).toEqual({
          id: 'm2',
          role: 'assistant',
          createdAt: timestamp,
          seq: 2,
        });
      }),
    );
  });

  it('sends a block that came whole once, and then leaves the content out', () => {
    const streamed = new StreamedAnswerText();
    expect(streamed.add(whole('t', 'Hello'))).toBe(true);
    expect(streamed.withoutStreamedText(answer('Hello')).content).toBeUndefined();
  });

  it('keeps what the deltas do not say: other content, provider data, other roles', () => {
    const streamed = new StreamedAnswerText();
    streamed.add(delta('t', 'Hel'));
    expect(
      streamed.add({ ...whole('t', 'Hel'), providerMetadata: { google: { thoughtSignature: 's' } } }),
    ).toBe(true);
    expect(streamed.withoutStreamedText(answer('Hello')).content).toBe('Hello');
    // The next message starts from nothing.
    expect(streamed.withoutStreamedText(answer(null)).content).toBeNull();
    streamed.add(delta('t', 'Hi'));
    const user: ConversationMessage = { id: 'm1', role: 'user', createdAt: timestamp, content: 'Hi' };
    expect(streamed.withoutStreamedText(user)).toBe(user);
  });

  it('leaves out the closing reasoning event (signature and all) and the reasoning that repeat the deltas', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1 }), { minLength: 1 }),
        fc.string({ minLength: 1 }),
        (pieces, text) => {
          const streamed = new StreamedAnswerText();
          const reasoning = pieces.join('');
          for (const piece of pieces)
            expect(streamed.add({ type: 'reasoning_delta', timestamp, id: 'r', delta: piece })).toBe(true);
          const signature = { anthropic: { signature: 'sig' } };
          expect(
            streamed.add({
              type: 'reasoning',
              timestamp,
              id: 'r',
              text: reasoning,
              providerMetadata: signature,
            }),
          ).toBe(false);
          streamed.add(delta('t', text));
          const message = { ...answer(text), reasoning: [{ text: reasoning, providerMetadata: signature }] };
          expect(streamed.withoutStreamedText(message)).toEqual({
            id: 'm2',
            role: 'assistant',
            createdAt: timestamp,
            seq: 2,
          });
        },
      ),
    );
  });

  it('keeps reasoning the deltas do not say: a redacted block, different text', () => {
    const streamed = new StreamedAnswerText();
    expect(streamed.add({ type: 'reasoning', timestamp, id: 'r', text: '', redacted: true })).toBe(true);
    const redacted = { ...answer('Hi'), reasoning: [{ text: '', redacted: true }] };
    expect(streamed.withoutStreamedText(redacted).reasoning).toEqual([{ text: '', redacted: true }]);
    streamed.add({ type: 'reasoning_delta', timestamp, id: 'r', delta: 'Hm' });
    const other = { ...answer('Hi'), reasoning: [{ text: 'Hmm' }] };
    expect(streamed.withoutStreamedText(other)).toEqual(other);
  });

  it('joins the blocks of one message in order', () => {
    const streamed = new StreamedAnswerText();
    streamed.add(delta('a', 'One. '));
    streamed.add(delta('b', 'Two.'));
    expect(streamed.withoutStreamedText(answer('One. Two.')).content).toBeUndefined();
  });
});
