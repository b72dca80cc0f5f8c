import type { EventLog, UIMessageChunk } from '@cairn/runtime';
import type { UIStreamPeers } from '../app/chat/running-ui-streams.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * UI-stream resume across the workers of a cluster, through the primary: a worker that is asked to
 * resume a turn it does not run follows it in the worker that runs it. Chunks cross the IPC channel
 * only while somebody follows.
 */
export function createIpcUIStreamPeers(channel: WorkerChannel): UIStreamPeers {
  let nextSub = 1;
  // Streams this worker follows elsewhere, by subscription.
  const following = new Map<
    string,
    { controller: ReadableStreamDefaultController<UIMessageChunk>; started: (found: boolean) => void }
  >();
  // Streams of this worker that others follow: stopping one ends its read.
  const served = new Map<string, AsyncGenerator<UIMessageChunk, void, undefined>>();
  let lookup: (conversationId: string) => EventLog<UIMessageChunk> | undefined = () => undefined;

  async function serveOne(sub: string, conversationId: string) {
    const log = lookup(conversationId);
    if (log === undefined) {
      channel.send({ cairn: 'ui-end', sub, found: false });
      return;
    }
    const chunks = log.read();
    served.set(sub, chunks);
    try {
      for await (const chunk of chunks) channel.send({ cairn: 'ui-chunk', sub, chunk });
    } finally {
      served.delete(sub);
      channel.send({ cairn: 'ui-end', sub, found: true });
    }
  }

  // The primary is gone: what was followed through it ends (the page reloads the stored answer).
  channel.disconnected.addEventListener('abort', () => {
    for (const [sub, entry] of following) {
      following.delete(sub);
      entry.started(true);
      entry.controller.close();
    }
  });

  channel.onMessage((message) => {
    switch (message.cairn) {
      case 'ui-follow':
        void serveOne(message.sub, message.conversationId);
        break;
      case 'ui-unfollow':
        void served.get(message.sub)?.return();
        break;
      case 'ui-chunk': {
        const entry = following.get(message.sub);
        entry?.started(true);
        entry?.controller.enqueue(message.chunk);
        break;
      }
      case 'ui-end': {
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
      channel.send({ cairn: 'ui-running', conversationId, running });
    },
    serve(serveLookup) {
      lookup = serveLookup;
    },
    follow(conversationId) {
      if (channel.disconnected.aborted) return Promise.resolve(undefined);
      const sub = String(nextSub++);
      return new Promise((resolve) => {
        const stream = new ReadableStream<UIMessageChunk>({
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
            channel.send({ cairn: 'ui-unfollow', sub });
          },
        });
        channel.send({ cairn: 'ui-follow', sub, conversationId });
      });
    },
  };
}
