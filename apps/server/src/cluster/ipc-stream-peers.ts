import type { EventLog } from '@cairn/runtime';
import type { RunningStreamKind, RunningStreamPeers } from '../app/streams/running-streams.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * Following a running turn across the workers of a cluster, through the primary: a worker that is asked
 * to resume a turn it does not run follows it in the worker that runs it. Events cross the IPC channel
 * only while somebody follows. One instance per kind of stream; their subscriptions never collide.
 */
export function createIpcStreamPeers<T>(
  channel: WorkerChannel,
  kind: RunningStreamKind,
): RunningStreamPeers<T> {
  let nextSub = 1;
  // Streams this worker follows elsewhere, by subscription.
  const following = new Map<
    string,
    { controller: ReadableStreamDefaultController<T>; started: (found: boolean) => void }
  >();
  // Streams of this worker that others follow: stopping one ends its read.
  const served = new Map<string, AsyncGenerator<T, void, undefined>>();
  let lookup: (conversationId: string) => EventLog<T> | undefined = () => undefined;

  async function serveOne(sub: string, conversationId: string) {
    const log = lookup(conversationId);
    if (log === undefined) {
      channel.send({ cairn: 'stream-end', sub, found: false });
      return;
    }
    const events = log.read();
    served.set(sub, events);
    try {
      for await (const event of events) channel.send({ cairn: 'stream-event', sub, event });
    } finally {
      served.delete(sub);
      channel.send({ cairn: 'stream-end', sub, found: true });
    }
  }

  // The primary is gone: what was followed through it ends (the page reloads what was stored).
  channel.disconnected.addEventListener('abort', () => {
    for (const [sub, entry] of following) {
      following.delete(sub);
      entry.started(true);
      entry.controller.close();
    }
  });

  channel.onMessage((message) => {
    switch (message.cairn) {
      case 'stream-follow':
        if (message.kind === kind) void serveOne(message.sub, message.conversationId);
        break;
      case 'stream-unfollow':
        void served.get(message.sub)?.return();
        break;
      case 'stream-event': {
        const entry = following.get(message.sub);
        entry?.started(true);
        entry?.controller.enqueue(message.event as T);
        break;
      }
      case 'stream-end': {
        const entry = following.get(message.sub);
        following.delete(message.sub);
        entry?.started(message.found);
        if (message.found) entry?.controller.close();
        break;
      }
    }
  });

  return {
    announce(conversationId, running) {
      channel.send({ cairn: 'stream-running', kind, conversationId, running });
    },
    serve(serveLookup) {
      lookup = serveLookup;
    },
    follow(conversationId) {
      if (channel.disconnected.aborted) return Promise.resolve(undefined);
      // The kind in the name keeps this instance's subscriptions apart from the other kind's.
      const sub = `${kind}-${nextSub++}`;
      return new Promise((resolve) => {
        const stream = new ReadableStream<T>({
          start(controller) {
            let answered = false;
            following.set(sub, {
              controller,
              started(found) {
                if (answered) return;
                answered = true;
                resolve(found ? stream : undefined);
              },
            });
          },
          cancel() {
            following.delete(sub);
            channel.send({ cairn: 'stream-unfollow', sub });
          },
        });
        channel.send({ cairn: 'stream-follow', kind, sub, conversationId });
      });
    },
  };
}
