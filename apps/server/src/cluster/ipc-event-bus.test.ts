import { describe, expect, it } from 'vitest';
import type { ConversationChanged } from '../events/conversation-events.js';
import type { WorkerToPrimary } from './cluster-messages.js';
import { createIpcEventBus } from './ipc-event-bus.js';
import { PrimaryEventRelay } from './primary-event-relay.js';
import { simulatedChannels } from './test-support.js';

/**
 * Workers' channels to a primary that holds what they send until `deliver()`: a test decides in
 * which order the primary sees the workers' messages.
 */
function heldCluster() {
  const held: { workerId: number; message: WorkerToPrimary }[] = [];
  const { channel, toWorker } = simulatedChannels((workerId, message) => held.push({ workerId, message }));
  const relay = new PrimaryEventRelay((workerId, event) => toWorker(workerId, { cairn: 'event', event }));
  const deliver = (workerId: number) => {
    for (const entry of held.filter((one) => one.workerId === workerId)) {
      held.splice(held.indexOf(entry), 1);
      const { message } = entry;
      if (message.cairn === 'event') relay.publish(workerId, message.event);
      if (message.cairn === 'events-follow')
        relay.follow(workerId, message.conversationId, message.following);
    }
  };
  return { channel, deliver, held };
}

describe('createIpcEventBus', () => {
  it("tells the primary when a conversation's first listener comes and its last goes", () => {
    const { channel, held } = heldCluster();
    const bus = createIpcEventBus(channel(1));
    const stopA = bus.subscribe('c1', () => {});
    const stopB = bus.subscribe('c1', () => {});
    stopA();
    stopA();
    expect(held.map((entry) => entry.message)).toEqual([
      { cairn: 'events-follow', conversationId: 'c1', following: true },
    ]);
    stopB();
    expect(held.map((entry) => entry.message)).toEqual([
      { cairn: 'events-follow', conversationId: 'c1', following: true },
      { cairn: 'events-follow', conversationId: 'c1', following: false },
    ]);
  });

  it("gives a worker's listeners the other workers' changes, and its own at once", async () => {
    const { channel, deliver } = heldCluster();
    const one = createIpcEventBus(channel(1));
    const two = createIpcEventBus(channel(2));
    const seen: ConversationChanged[] = [];
    two.subscribe('c1', (event) => seen.push(event));
    deliver(2);
    await one.publish({ conversationId: 'c1', lastSeq: 1 });
    await two.publish({ conversationId: 'c1', lastSeq: 2 });
    await one.publish({ conversationId: 'c2', lastSeq: 1 });
    deliver(1);
    deliver(2);
    expect(seen).toEqual([
      { conversationId: 'c1', lastSeq: -1 },
      { conversationId: 'c1', lastSeq: 2 },
      { conversationId: 'c1', lastSeq: 1 },
    ]);
  });

  it('reaches a listener whose follow the primary sees after the change: it is told to re-read', async () => {
    const { channel, deliver } = heldCluster();
    const one = createIpcEventBus(channel(1));
    const two = createIpcEventBus(channel(2));
    const seen: ConversationChanged[] = [];
    // Subscribed (and so read the store) before the change; its follow is still on the way.
    two.subscribe('c1', (event) => seen.push(event));
    await one.publish({ conversationId: 'c1', lastSeq: 7 });
    deliver(1);
    expect(seen).toEqual([]);
    deliver(2);
    expect(seen).toEqual([{ conversationId: 'c1', lastSeq: -1 }]);
  });
});
