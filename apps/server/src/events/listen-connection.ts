import type { RuntimeLogger } from '@cairn/runtime';
import pg from 'pg';

/** The LISTEN connection's `application_name`, to find it in `pg_stat_activity`. */
export const LISTEN_APPLICATION_NAME = 'cairn-events';
const FIRST_RECONNECT_DELAY_MS = 100;
const MAX_RECONNECT_DELAY_MS = 5_000;
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;

export interface ListenConnectionOptions {
  connectionString: string;
  /** Already validated as a plain lower-case identifier. */
  channel: string;
  logger: Pick<RuntimeLogger, 'info' | 'warn'> | undefined;
  onNotification: (payload: string | undefined) => void;
  /** Called after a reconnect: notifications sent while the connection was down are lost. */
  onReconnected: () => void;
  /** How often `SELECT 1` checks the connection; default 30 s. */
  heartbeatIntervalMs?: number;
}

export interface ListenConnection {
  /** Whether the connection is up (false while reconnecting). */
  connected(): boolean;
  /** Ends the connection and stops reconnecting. */
  close(): Promise<void>;
}

/**
 * A dedicated connection LISTENing on `channel`. If it errors or ends, it reconnects with backoff (100 ms
 * doubling to 5 s) and LISTENs again. Rejects if the first attempt fails. Every pg client gets an 'error'
 * handler before connecting: an unhandled one would crash the process.
 *
 * A connection that dies silently (a half-open TCP connection: a network drop, a failover without a
 * reset) reports nothing and would stay deaf for hours, TCP keepalive being that slow by default. So
 * every `heartbeatIntervalMs` it runs `SELECT 1`: a failure, or no answer by the next beat, counts as the
 * connection lost, and the reconnect above runs (and with it the "re-check the store" of `onReconnected`).
 */
export async function openListenConnection(options: ListenConnectionOptions): Promise<ListenConnection> {
  const { connectionString, channel, logger } = options;
  let closed = false;
  let current: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnecting: Promise<void> | undefined;

  const listen = async (): Promise<pg.Client> => {
    // keepAlive: a silent network drop must end the connection (and so reconnect), not leave it deaf.
    const client = new pg.Client({
      connectionString,
      application_name: LISTEN_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('LISTEN connection ended')));
    client.on('notification', (notification) => options.onNotification(notification.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end();
      throw error;
    }
    return client;
  };

  // A client that is not (or no longer) the current one failed while connecting, or was already handled.
  const lost = (client: pg.Client, error: Error) => {
    if (client !== current || closed) return;
    current = undefined;
    logger?.warn({ err: error, channel }, 'LISTEN connection lost; reconnecting');
    void client.end().catch(() => {});
    // A half-open socket would never finish `end`: close it now. (`connection.stream` is pg's socket.)
    (
      client as unknown as { connection?: { stream?: { destroy?: () => void } } }
    ).connection?.stream?.destroy?.();
    scheduleReconnect(FIRST_RECONNECT_DELAY_MS);
  };

  // The client whose last `SELECT 1` has not been answered yet.
  let unanswered: pg.Client | undefined;
  const beat = () => {
    const client = current;
    if (client === undefined) return;
    if (unanswered === client) {
      lost(client, new Error('LISTEN connection did not answer its heartbeat'));
      return;
    }
    unanswered = client;
    client.query('SELECT 1').then(
      () => {
        if (unanswered === client) unanswered = undefined;
      },
      (error: Error) => lost(client, error),
    );
  };
  const heartbeat = setInterval(beat, options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS);
  // Keeping watch must not keep the process alive.
  heartbeat.unref();

  const scheduleReconnect = (delayMs: number) => {
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      reconnecting = reconnect(delayMs).finally(() => {
        reconnecting = undefined;
      });
    }, delayMs);
  };

  const reconnect = async (delayMs: number) => {
    let client: pg.Client;
    try {
      client = await listen();
    } catch (error) {
      if (closed) return;
      logger?.warn({ err: error, channel }, 'LISTEN reconnect failed');
      scheduleReconnect(Math.min(delayMs * 2, MAX_RECONNECT_DELAY_MS));
      return;
    }
    if (closed) {
      await client.end();
      return;
    }
    current = client;
    logger?.info({ channel }, 'LISTEN connection restored');
    options.onReconnected();
  };

  try {
    current = await listen();
  } catch (error) {
    clearInterval(heartbeat);
    throw error;
  }
  return {
    connected: () => current !== undefined,
    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(reconnectTimer);
      const client = current;
      current = undefined;
      await Promise.all([client?.end(), reconnecting]);
    },
  };
}
