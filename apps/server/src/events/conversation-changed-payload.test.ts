import { describe, expect, it } from 'vitest';
import { decodeConversationChanged, encodeConversationChanged } from './conversation-changed-payload.js';

describe('conversation-changed payload', () => {
  it('round-trips an event through short keys', () => {
    const payload = encodeConversationChanged({ conversationId: 'c1', lastSeq: 7 });
    expect(JSON.parse(payload)).toEqual({ c: 'c1', s: 7 });
    expect(decodeConversationChanged(payload)).toEqual({ conversationId: 'c1', lastSeq: 7 });
    expect(decodeConversationChanged('{"c":"c1","s":-1}')).toEqual({ conversationId: 'c1', lastSeq: -1 });
  });

  it.each([
    undefined,
    '',
    'not json',
    'null',
    '{"c":"c1"}',
    '{"c":"","s":1}',
    '{"c":1,"s":1}',
    '{"c":"c1","s":1.5}',
    '{"c":"c1","s":-2}',
    '{"c":"c1","s":"1"}',
  ])('rejects %j', (payload) => {
    expect(decodeConversationChanged(payload)).toBeUndefined();
  });
});
