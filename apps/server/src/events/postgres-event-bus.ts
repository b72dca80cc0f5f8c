import { CairnError, definedFields } from '@cairn/core';
import type { RuntimeLogger } from '@cairn/runtime';
import pg from 'pg';
import { decodeConversationChanged, encodeConversationChanged } from './conversation-changed-payload.js';
import type { ConversationEventBus } from './conversation-events.js';
import { ConversationListeners } from './conversation-listeners.js';
import { openListenConnection } from './listen-connection.js';

export interface PostgresEventBusOptions {
  connectionString: string;
  /** The NOTIFY channel every instance shares: lower-case letters, digits and `_`, at most 63 characters. */
  channel?: string;
  logger?: Pick<RuntimeLogger, 'info' | 'warn'>;
  /**
   * How often the LISTEN connection is checked with `SELECT 1`, so a connection that died silently is
   * noticed and replaced (see `openListenConnection`). Default 30 s.
   */
  heartbeatIntervalMs?: number;
}

const DEFAULT_CHANNEL = 'cairn_conversation_changed';
const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A bus shared by every server instance on one database, over LISTEN/NOTIFY. `publish` only sends the
 * NOTIFY; local listeners hear it when it comes back like everyone else's, so there is one delivery path.
 *
 * Two connections: a dedicated LISTEN client (see `openListenConnection`), and a small pool for
 * `pg_notify`. Publishing on the LISTEN client would delay notifications behind publish queries, and would
 * fail whenever that client is reconnecting.
 *
 * Notices sent while the LISTEN connection was down are lost, so after each reconnect the bus emits
 * `lastSeq: -1` to every subscribed conversation: their listeners read the store from their own last seq
 * and catch up.
 *
 * Rejects if the first LISTEN fails: a server should not start with a bus it cannot reach.
 */
export async function createPostgresEventBus(
  options: PostgresEventBusOptions,
): Promise<ConversationEventBus> {
  const { connectionString, channel = DEFAULT_CHANNEL, logger } = options;
  if (!CHANNEL_PATTERN.test(channel)) {
    throw new CairnError('INVALID_ARGUMENT', `Invalid NOTIFY channel name: ${JSON.stringify(channel)}`);
  }
  const listeners = new ConversationListeners();
  const onListenerError = (error: unknown) => logger?.warn({ err: error, channel }, 'event listener threw');

  const connection = await openListenConnection({
    connectionString,
    channel,
    logger,
    ...definedFields({ heartbeatIntervalMs: options.heartbeatIntervalMs }),
    onNotification(payload) {
      const event = decodeConversationChanged(payload);
      if (event === undefined) logger?.warn({ channel, payload }, 'ignored a malformed notification');
      else listeners.emit(event, onListenerError);
    },
    onReconnected() {
      for (const conversationId of listeners.conversationIds()) {
        listeners.emit({ conversationId, lastSeq: -1 }, onListenerError);
      }
    },
  });
  const pool = new pg.Pool({
    connectionString,
    max: 2,
    application_name: 'cairn-events-publish',
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  });
  // An idle pooled connection that dies is dropped by the pool; the next publish opens a new one.
  pool.on('error', (error) => logger?.warn({ err: error, channel }, 'idle publish connection failed'));

  let closing: Promise<void> | undefined;
  return {
    async publish(event) {
      if (closing !== undefined) return;
      try {
        await pool.query('SELECT pg_notify($1, $2)', [channel, encodeConversationChanged(event)]);
      } catch (error) {
        const message = `Could not publish a conversation change: ${String(error)}`;
        throw new CairnError('STORE_UNAVAILABLE', message, { cause: error });
      }
    },
    subscribe(conversationId, listener) {
      return closing === undefined ? listeners.add(conversationId, listener) : () => {};
    },
    async ready() {
      if (closing !== undefined) throw new CairnError('STORE_UNAVAILABLE', 'the event bus is closed');
      if (!connection.connected()) {
        throw new CairnError('STORE_UNAVAILABLE', 'the LISTEN connection is down (reconnecting)');
      }
      try {
        await pool.query('SELECT 1');
      } catch (error) {
        throw new CairnError('STORE_UNAVAILABLE', 'the event bus database is unavailable', { cause: error });
      }
    },
    close() {
      listeners.clear();
      closing ??= Promise.all([connection.close(), pool.end()]).then(() => undefined);
      return closing;
    },
  };
}
