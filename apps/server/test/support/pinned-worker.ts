import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';

/** Requests that all reach one worker of a cluster: one kept-alive connection, found by `X-Cairn-Worker`. */
export interface PinnedWorker {
  workerId: string;
  request(
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
  close(): void;
}

/**
 * A connection to worker `workerId` of the cluster at `url`: the primary hands each new connection to
 * the next worker, so connections are opened (and dropped) until one lands on it. One request at a
 * time: a second one waits for the first's answer to end (open one per concurrent request).
 */
export async function pinnedWorker(url: string, workerId: string, token?: string): Promise<PinnedWorker> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const pinned = pinnedOn(agent, url, workerId, token);
    const probe = await pinned.request('/healthz');
    await probe.arrayBuffer();
    if (probe.headers.get('x-cairn-worker') === workerId) return pinned;
    agent.destroy();
  }
  throw new Error(`no connection reached worker ${workerId}`);
}

function pinnedOn(agent: Agent, url: string, workerId: string, token: string | undefined): PinnedWorker {
  return {
    workerId,
    request(path, init = {}) {
      const headers: Record<string, string> = {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...init.headers,
      };
      return new Promise((resolve, reject) => {
        const outgoing = request(
          new URL(path, url),
          { agent, method: init.method ?? 'GET', headers },
          (incoming) => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              if (typeof value === 'string') responseHeaders.set(name, value);
            }
            const status = incoming.statusCode ?? 0;
            const body = status === 204 ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
            if (body === null) incoming.resume();
            resolve(new Response(body, { status, headers: responseHeaders }));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(init.body);
      });
    },
    close: () => agent.destroy(),
  };
}
