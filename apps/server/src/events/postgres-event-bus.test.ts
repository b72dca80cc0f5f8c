import { randomBytes } from 'node:crypto';
import { findFreePort, startPostgres } from '@cairn/postgres-test-server';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import type { ConversationChanged, ConversationEventBus } from './conversation-events.js';
import { LISTEN_APPLICATION_NAME } from './listen-connection.js';
import { createPostgresEventBus, type PostgresEventBusOptions } from './postgres-event-bus.js';

// A channel per test: test files run in parallel on one database.
const freshChannel = () => `cairn_test_${randomBytes(6).toString('hex')}`;

const testLogger = () => ({ info: vi.fn(), warn: vi.fn() });

async function openBus(options: PostgresEventBusOptions): Promise<ConversationEventBus> {
  const bus = await createPostgresEventBus(options);
  onTestFinished(() => bus.close());
  return bus;
}

function record(bus: ConversationEventBus, conversationId: string): ConversationChanged[] {
  const events: ConversationChanged[] = [];
  bus.subscribe(conversationId, (event) => events.push(event));
  return events;
}

function adminPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 1 });
  onTestFinished(() => pool.end());
  return pool;
}

async function listenerPids(admin: pg.Pool, channel: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query = $2',
    [LISTEN_APPLICATION_NAME, `LISTEN ${pg.escapeIdentifier(channel)}`],
  );
  return rows.map((row) => row.pid);
}

describe('createPostgresEventBus', () => {
  const url = inject('databaseUrl');

  it('delivers a publish to every instance, the publisher included, for that conversation only', async () => {
    const channel = freshChannel();
    const a = await openBus({ connectionString: url, channel });
    const b = await openBus({ connectionString: url, channel });
    const onA = record(a, 'c1');
    const onB = record(b, 'c1');
    const otherOnB = record(b, 'c2');
    await a.publish({ conversationId: 'c1', lastSeq: 3 });
    await b.publish({ conversationId: 'c1', lastSeq: 4 });
    const expected = [
      { conversationId: 'c1', lastSeq: 3 },
      { conversationId: 'c1', lastSeq: 4 },
    ];
    await expect.poll(() => onA).toEqual(expected);
    await expect.poll(() => onB).toEqual(expected);
    expect(otherOnB).toEqual([]);
  });

  it('ignores and logs malformed payloads sent on its channel', async () => {
    const channel = freshChannel();
    const logger = testLogger();
    const bus = await openBus({ connectionString: url, channel, logger });
    const events = record(bus, 'c1');
    const admin = adminPool(url);
    for (const payload of ['not json', '{"c":"c1"}', '{"c":"c1","s":"2"}', '{"c":"c1","s":2}']) {
      await admin.query('SELECT pg_notify($1, $2)', [channel, payload]);
    }
    await expect.poll(() => events).toEqual([{ conversationId: 'c1', lastSeq: 2 }]);
    expect(logger.warn).toHaveBeenCalledTimes(3);
    expect(logger.warn).toHaveBeenCalledWith(
      { channel, payload: 'not json' },
      'ignored a malformed notification',
    );
  });

  it('reconnects after its LISTEN backend is terminated and tells subscribers to re-check the store', async () => {
    const channel = freshChannel();
    const logger = testLogger();
    const bus = await openBus({ connectionString: url, channel, logger });
    const c1 = record(bus, 'c1');
    const c2 = record(bus, 'c2');
    const admin = adminPool(url);
    const [pid] = await listenerPids(admin, channel);
    expect(pid).toBeTypeOf('number');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);

    await expect.poll(() => c1, { timeout: 10_000 }).toEqual([{ conversationId: 'c1', lastSeq: -1 }]);
    expect(c2).toEqual([{ conversationId: 'c2', lastSeq: -1 }]);
    const [newPid] = await listenerPids(admin, channel);
    expect(newPid).not.toBe(pid);
    expect(logger.info).toHaveBeenCalledWith({ channel }, 'LISTEN connection restored');

    await bus.publish({ conversationId: 'c1', lastSeq: 9 });
    await expect
      .poll(() => c1)
      .toEqual([
        { conversationId: 'c1', lastSeq: -1 },
        { conversationId: 'c1', lastSeq: 9 },
      ]);
  });

  it('keeps retrying while the database is down and resumes when it is back', async () => {
    const port = await findFreePort();
    let server = await startPostgres({ port });
    onTestFinished(() => server.stop());
    const logger = testLogger();
    const bus = await openBus({ connectionString: server.url, logger });
    const events = record(bus, 'c1');
    await server.stop();
    await expect.poll(() => logger.warn.mock.calls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(events).toEqual([]);

    server = await startPostgres({ port });
    await expect.poll(() => events, { timeout: 15_000 }).toEqual([{ conversationId: 'c1', lastSeq: -1 }]);
    await bus.publish({ conversationId: 'c1', lastSeq: 1 });
    await expect.poll(() => events).toContainEqual({ conversationId: 'c1', lastSeq: 1 });
  }, 60_000);

  it('ends both connections on close and ignores publishes after it', async () => {
    const channel = freshChannel();
    const bus = await createPostgresEventBus({ connectionString: url, channel });
    const events = record(bus, 'c1');
    const admin = adminPool(url);
    expect(await listenerPids(admin, channel)).toHaveLength(1);
    await Promise.all([bus.close(), bus.close()]);
    await bus.publish({ conversationId: 'c1', lastSeq: 1 });
    await expect.poll(() => listenerPids(admin, channel)).toEqual([]);
    expect(events).toEqual([]);
  });

  it('rejects an unsafe channel name and a database it cannot reach', async () => {
    for (const channel of ['Upper', '1abc', 'a-b', 'x"; DROP TABLE t; --', 'a'.repeat(64)]) {
      await expect(createPostgresEventBus({ connectionString: url, channel })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
    const port = await findFreePort();
    await expect(
      createPostgresEventBus({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` }),
    ).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
