import { describe, expect, it } from 'vitest';
import { decodeConversationChanged, encodeConversationChanged } from './conversation-changed-payload.js';

describe('conversation-changed payload', () => {
  it('round-trips an event through short keys', () => {
    const payload = encodeConversationChanged({ conversationId: 'c1', lastSeq: 7 });
    expect(JSON.parse(payload)).toEqual({ c: 'c1', s: 7 });
    expect(decodeConversationChanged(payload)).toEqual({ conversationId: 'c1', lastSeq: 7 });
    expect(decodeConversationChanged('{"c":"c1","s":-1}')).toEqual({ conversationId: 'c1', lastSeq: -1 });
  });

  it('marks a deletion with d: 1, and reads a payload with unknown keys (a later version) as before', () => {
    const payload = encodeConversationChanged({ conversationId: 'c1', lastSeq: 0, deleted: true });
    expect(JSON.parse(payload)).toEqual({ c: 'c1', s: 0, d: 1 });
    expect(decodeConversationChanged(payload)).toEqual({ conversationId: 'c1', lastSeq: 0, deleted: true });
    expect(
      JSON.parse(encodeConversationChanged({ conversationId: 'c1', lastSeq: 3, deleted: false })),
    ).toEqual({
      c: 'c1',
      s: 3,
    });
    expect(decodeConversationChanged('{"c":"c1","s":4,"x":true}')).toEqual({
      conversationId: 'c1',
      lastSeq: 4,
    });
  });

  it.each([
    '{"c":"c1","s":0,"d":2}',
    '{"c":"c1","s":0,"d":true}',
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
