import type { MetricsPeers } from '../app/route-deps.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * `/metrics` of a whole cluster: the worker a scrape reaches asks the primary, which collects every
 * worker's metrics and sums them, so successive scrapes (reaching any worker) see one server's counters.
 */
export function createIpcMetricsPeers(channel: WorkerChannel): MetricsPeers {
  let nextRequest = 1;
  let collect: () => Promise<unknown[]> = async () => [];
  const answers = new Map<string, (gathered: { text: string; contentType: string }) => void>();
  channel.onMessage((message) => {
    if (message.cairn === 'metrics') {
      collect().then(
        (metrics) => channel.send({ cairn: 'metrics', request: message.request, metrics }),
        () => channel.send({ cairn: 'metrics', request: message.request, metrics: [] }),
      );
    } else if (message.cairn === 'metrics-gathered') {
      answers.get(message.request)?.(message);
      answers.delete(message.request);
    }
  });
  return {
    serve(collectHere) {
      collect = collectHere;
    },
    gather() {
      const request = String(nextRequest++);
      return new Promise((resolve) => {
        answers.set(request, resolve);
        channel.send({ cairn: 'metrics-gather', request });
      });
    },
  };
}
