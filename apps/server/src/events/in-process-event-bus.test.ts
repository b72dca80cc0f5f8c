import { describe, expect, it, vi } from 'vitest';
import { createInProcessEventBus } from './in-process-event-bus.js';

describe('createInProcessEventBus', () => {
  it('calls the listeners of the published conversation until they unsubscribe', async () => {
    const bus = createInProcessEventBus();
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribeFirst = bus.subscribe('c1', first);
    bus.subscribe('c1', second);
    await bus.publish({ conversationId: 'c1', lastSeq: 1 });
    unsubscribeFirst();
    unsubscribeFirst();
    await bus.publish({ conversationId: 'c1', lastSeq: 2 });
    expect(first.mock.calls).toEqual([[{ conversationId: 'c1', lastSeq: 1 }]]);
    expect(second.mock.calls).toEqual([
      [{ conversationId: 'c1', lastSeq: 1 }],
      [{ conversationId: 'c1', lastSeq: 2 }],
    ]);
  });

  it('keeps conversations apart, and the same function subscribed twice is called twice', async () => {
    const bus = createInProcessEventBus();
    const c1 = vi.fn();
    const c2 = vi.fn();
    bus.subscribe('c1', c1);
    const unsubscribeOnce = bus.subscribe('c2', c2);
    bus.subscribe('c2', c2);
    await bus.publish({ conversationId: 'c2', lastSeq: 5 });
    expect(c1).not.toHaveBeenCalled();
    expect(c2).toHaveBeenCalledTimes(2);
    unsubscribeOnce();
    await bus.publish({ conversationId: 'c2', lastSeq: 6 });
    expect(c2).toHaveBeenCalledTimes(3);
  });

  it('still calls the other listeners when one throws', async () => {
    const bus = createInProcessEventBus();
    const after = vi.fn();
    bus.subscribe('c1', () => {
      throw new Error('listener bug');
    });
    bus.subscribe('c1', after);
    await expect(bus.publish({ conversationId: 'c1', lastSeq: 1 })).resolves.toBeUndefined();
    expect(after).toHaveBeenCalledOnce();
  });

  it('drops every listener on close and ignores publishes and subscriptions after it', async () => {
    const bus = createInProcessEventBus();
    const before = vi.fn();
    bus.subscribe('c1', before);
    await bus.close();
    const afterClose = vi.fn();
    bus.subscribe('c1', afterClose)();
    await bus.publish({ conversationId: 'c1', lastSeq: 1 });
    expect(before).not.toHaveBeenCalled();
    expect(afterClose).not.toHaveBeenCalled();
  });
});
