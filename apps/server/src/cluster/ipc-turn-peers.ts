import type { TurnPeers } from '../app/route-deps.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * Aborting a conversation's turns in every worker of a cluster, through the primary: the abort
 * request reaches one worker, the turn may run (or wait for its lock) in another.
 */
export function createIpcTurnPeers(channel: WorkerChannel): TurnPeers {
  let nextRequest = 1;
  const answers = new Map<string, (aborted: boolean) => void>();
  let abortHere: (conversationId: string, reason: string, queued: boolean) => boolean = () => false;
  channel.onMessage((message) => {
    if (message.cairn === 'abort') {
      const aborted = abortHere(message.conversationId, message.reason, message.queued);
      channel.send({ cairn: 'aborted', request: message.request, aborted });
    } else if (message.cairn === 'aborted') {
      answers.get(message.request)?.(message.aborted);
      answers.delete(message.request);
    }
  });
  return {
    serve(abort) {
      abortHere = abort;
    },
    abort(conversationId, reason, queued) {
      if (channel.disconnected.aborted) return Promise.resolve(false);
      const request = String(nextRequest++);
      return new Promise((resolve) => {
        answers.set(request, resolve);
        channel.send({ cairn: 'abort', request, conversationId, reason, queued });
      });
    },
  };
}
