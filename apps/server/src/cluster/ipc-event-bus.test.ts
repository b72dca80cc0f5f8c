import { describe, expect, it } from 'vitest';
import type { ConversationChanged } from '../events/conversation-events.js';
import type { PrimaryToWorker, WorkerToPrimary } from './cluster-messages.js';
import { createIpcEventBus } from './ipc-event-bus.js';
import { PrimaryEventRelay } from './primary-event-relay.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * Workers' channels to a primary that holds what they send until `deliver()`: a test decides in
 * which order the primary sees the workers' messages.
 */
function heldCluster() {
  const handlers = new Map<number, Set<(message: PrimaryToWorker) => void>>();
  const relay = new PrimaryEventRelay((workerId, event) => {
    for (const handler of handlers.get(workerId) ?? []) handler({ cairn: 'event', event });
  });
  const held: { workerId: number; message: WorkerToPrimary }[] = [];
  const deliver = (workerId: number) => {
    for (const entry of held.filter((one) => one.workerId === workerId)) {
      held.splice(held.indexOf(entry), 1);
      const { message } = entry;
      if (message.cairn === 'event') relay.publish(workerId, message.event);
      if (message.cairn === 'events-follow')
        relay.follow(workerId, message.conversationId, message.following);
    }
  };
  const channel = (workerId: number): WorkerChannel => {
    const own = new Set<(message: PrimaryToWorker) => void>();
    handlers.set(workerId, own);
    return {
      send: (message) => held.push({ workerId, message }),
      onMessage(handler) {
        own.add(handler);
        return () => own.delete(handler);
      },
      disconnected: new AbortController().signal,
    };
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
