import { describe, expect, it } from 'vitest';
import type { ConversationChanged } from '../events/conversation-events.js';
import { PrimaryEventRelay } from './primary-event-relay.js';

function relayWithLog() {
  const sent: { workerId: number; event: ConversationChanged }[] = [];
  const relay = new PrimaryEventRelay((workerId, event) => sent.push({ workerId, event }));
  return { relay, sent };
}

describe('PrimaryEventRelay', () => {
  it('passes a change on only to the other workers following the conversation', () => {
    const { relay, sent } = relayWithLog();
    relay.follow(2, 'c1', true);
    relay.follow(3, 'c2', true);
    sent.length = 0;
    relay.publish(1, { conversationId: 'c1', lastSeq: 4 });
    relay.publish(2, { conversationId: 'c1', lastSeq: 5 });
    relay.publish(1, { conversationId: 'c3', lastSeq: 1 });
    expect(sent).toEqual([{ workerId: 2, event: { conversationId: 'c1', lastSeq: 4 } }]);
  });

  it('sends a worker that starts following a re-read, so a change relayed before is not missed', () => {
    const { relay, sent } = relayWithLog();
    relay.publish(1, { conversationId: 'c1', lastSeq: 3 });
    relay.follow(2, 'c1', true);
    expect(sent).toEqual([{ workerId: 2, event: { conversationId: 'c1', lastSeq: -1 } }]);
  });

  it('stops when a worker stops following or exits', () => {
    const { relay, sent } = relayWithLog();
    relay.follow(2, 'c1', true);
    relay.follow(3, 'c1', true);
    relay.follow(3, 'c2', true);
    sent.length = 0;
    relay.follow(2, 'c1', false);
    relay.publish(1, { conversationId: 'c1', lastSeq: 2 });
    expect(sent.map((entry) => entry.workerId)).toEqual([3]);
    relay.releaseWorker(3);
    relay.publish(1, { conversationId: 'c1', lastSeq: 3 });
    relay.publish(1, { conversationId: 'c2', lastSeq: 1 });
    expect(sent).toHaveLength(1);
  });
});
