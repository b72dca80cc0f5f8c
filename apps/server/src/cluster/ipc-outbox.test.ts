import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type IpcBatch, IpcOutbox, unbatch } from './ipc-outbox.js';

type Message = { cairn: string; n: number };

const collect = () => {
  const written: (Message | IpcBatch<Message>)[] = [];
  return { written, outbox: new IpcOutbox<Message>((message) => written.push(message)) };
};

describe('IpcOutbox', () => {
  it('sends what one turn of the event loop queued as one batch, in order, and nothing before', async () => {
    const { written, outbox } = collect();
    for (let n = 1; n <= 3; n++) outbox.send({ cairn: 'event', n });
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toEqual([{ cairn: 'batch', messages: [1, 2, 3].map((n) => ({ cairn: 'event', n })) }]);
  });

  it('sends a lone message as itself, and each turn its own', async () => {
    const { written, outbox } = collect();
    outbox.send({ cairn: 'event', n: 1 });
    await nextTurn();
    outbox.send({ cairn: 'event', n: 2 });
    await nextTurn();
    expect(written).toEqual([
      { cairn: 'event', n: 1 },
      { cairn: 'event', n: 2 },
    ]);
  });

  it('flush() sends the queue at once, so a last word sent after it comes after it', async () => {
    const { written, outbox } = collect();
    outbox.send({ cairn: 'lock-release', n: 1 });
    outbox.flush();
    written.push({ cairn: 'stopped', n: 2 });
    await nextTurn();
    expect(written).toEqual([
      { cairn: 'lock-release', n: 1 },
      { cairn: 'stopped', n: 2 },
    ]);
  });
});

describe('unbatch', () => {
  it("gives a batch's messages in order, and anything else as itself", () => {
    const messages = [
      { cairn: 'event', n: 1 },
      { cairn: 'event', n: 2 },
    ];
    expect(unbatch({ cairn: 'batch', messages })).toEqual(messages);
    expect(unbatch({ cairn: 'event', n: 1 })).toEqual([{ cairn: 'event', n: 1 }]);
    expect(unbatch('NODE_CLUSTER internal')).toEqual(['NODE_CLUSTER internal']);
  });
});
