import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import type { ConversationChanged } from './conversation-events.js';
import { createPostgresEventBus } from './postgres-event-bus.js';

/**
 * A TCP proxy to the database that can go silent: `freeze()` stops forwarding on the connections open
 * so far without closing them — a half-open connection, as after a network drop, which reports no
 * error. Connections made afterwards work.
 */
async function startFreezableProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const pairs: { client: net.Socket; upstream: net.Socket; frozen: boolean }[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair = { client, upstream, frozen: false };
    pairs.push(pair);
    client.on('data', (chunk) => {
      if (!pair.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.frozen) client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  onTestFinished(async () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: url.toString(),
    freeze() {
      for (const pair of pairs) pair.frozen = true;
    },
  };
}

describe('the LISTEN connection heartbeat', () => {
  it('notices a connection gone silent, reconnects, and tells subscribers to re-check the store', async () => {
    const proxy = await startFreezableProxy(inject('databaseUrl'));
    const logger = { info: vi.fn(), warn: vi.fn() };
    const channel = `cairn_test_${randomBytes(6).toString('hex')}`;
    const bus = await createPostgresEventBus({
      connectionString: proxy.url,
      channel,
      logger,
      heartbeatIntervalMs: 100,
    });
    onTestFinished(() => bus.close());
    const events: ConversationChanged[] = [];
    bus.subscribe('c1', (event) => events.push(event));

    // Nothing fails: the connection (the only one so far: LISTEN) just stops answering. Only the
    // heartbeat can tell.
    proxy.freeze();
    await expect.poll(() => events, { timeout: 15_000 }).toEqual([{ conversationId: 'c1', lastSeq: -1 }]);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ channel }),
      'LISTEN connection lost; reconnecting',
    );
    expect(logger.info).toHaveBeenCalledWith({ channel }, 'LISTEN connection restored');

    // The new connection (through the proxy too, not frozen) hears notices again.
    await expect(bus.ready?.()).resolves.toBeUndefined();
    // Published until heard: on a loaded machine a 100 ms heartbeat can miss once more, and a notice
    // sent while the bus reconnects again is replaced by a re-check (lastSeq -1), by design.
    await expect
      .poll(
        async () => {
          await bus.publish({ conversationId: 'c1', lastSeq: 5 });
          return events;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toContainEqual({ conversationId: 'c1', lastSeq: 5 });
  });
});
