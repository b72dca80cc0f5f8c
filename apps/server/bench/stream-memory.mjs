// Memory per open SSE stream: idle GET …/events streams opened on the server, its heap (after forced
// GCs, asked over IPC) and RSS before and after ÷ streams. They are closed again and the heap read
// once more.
import http from 'node:http';

function openEventStream(port, apiToken, conversationId) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/v1/conversations/${conversationId}/events`,
        headers: { authorization: `Bearer ${apiToken}`, accept: 'text/event-stream' },
        agent: false,
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`events: HTTP ${response.statusCode}`));
        // The server writes `: connected` at once: the stream is set up on its side.
        response.once('data', () => resolve(request));
      },
    );
    request.on('error', reject);
  });
}

async function openStreams(port, apiToken, count, prefix) {
  const requests = [];
  for (let opened = 0; opened < count; opened += 100) {
    const batch = Array.from({ length: Math.min(100, count - opened) }, (_, index) =>
      openEventStream(port, apiToken, `${prefix}-${opened + index}`),
    );
    requests.push(...(await Promise.all(batch)));
  }
  return requests;
}

async function closeStreams(requests) {
  for (const request of requests) request.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
}

export async function measureStreamMemory(server, apiToken, streams) {
  // The first streams after start-up compile code and fill caches that stay: some are opened and
  // closed before the baseline, so it is not counted as the streams' own memory.
  await closeStreams(await openStreams(server.port, apiToken, Math.min(100, streams), 'warm-up'));
  const before = (await server.ask('memory')).memory;
  const requests = await openStreams(server.port, apiToken, streams, 'idle');
  const open = (await server.ask('memory')).memory;
  await closeStreams(requests);
  const closed = (await server.ask('memory')).memory;
  const perStream = (field) => (open[field] - before[field]) / streams;
  return {
    streams,
    heapBytesPerStream: perStream('heapUsed'),
    externalBytesPerStream: perStream('external'),
    rssBytesPerStream: perStream('rss'),
    heapUsedMB: {
      before: before.heapUsed / 2 ** 20,
      open: open.heapUsed / 2 ** 20,
      closed: closed.heapUsed / 2 ** 20,
    },
    rssMB: { before: before.rss / 2 ** 20, open: open.rss / 2 ** 20, closed: closed.rss / 2 ** 20 },
  };
}
