import { openStore } from '@cairn/connect';
import type { ConversationStore } from '@cairn/core';
import { CairnError } from '@cairn/core';
import type { ServerLogger } from '../app/server-env.js';
import type { ServerConfig } from '../config/server-config.js';
import type { ConversationEventBus } from '../events/conversation-events.js';
import { createInProcessEventBus } from '../events/in-process-event-bus.js';
import { createPostgresEventBus } from '../events/postgres-event-bus.js';
import { createInProcessTurnLock } from '../turn-lock/in-process-turn-lock.js';
import { createPostgresTurnLock } from '../turn-lock/postgres-turn-lock.js';
import type { ConversationTurnLock } from '../turn-lock/turn-lock.js';

export interface Backends {
  store: ConversationStore;
  events: ConversationEventBus;
  turnLock: ConversationTurnLock;
  close(): Promise<void>;
}

/**
 * The store, and what instances must share: on PostgreSQL the event bus (LISTEN/NOTIFY) and the
 * turn locks (advisory locks), so several server processes can serve one database. The fs and
 * SQLite stores are shared by the processes of one machine only: their bus and locks are `local`,
 * in-process for a single process, the cluster primary's for its workers.
 */
export async function openBackends(
  config: Pick<ServerConfig, 'store' | 'dataDir' | 'databaseUrl' | 'lockConnections'>,
  logger: ServerLogger,
  local: () => LocalCoordination = inProcessCoordination,
): Promise<Backends> {
  try {
    return await open(config, logger, local);
  } catch (error) {
    if (CairnError.is(error)) throw error;
    // A driver's own words (never the URL, which may hold a password), with what to check.
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CairnError('STORE_UNAVAILABLE', `cannot open the ${config.store} store: ${reason}`, {
      details: {
        fix:
          config.store === 'postgres'
            ? 'check DATABASE_URL (postgres://user:password@host:5432/db) and that PostgreSQL is up'
            : 'check that the data directory is writable (--data-dir / CAIRN_DATA_DIR)',
      },
    });
  }
}

/** The bus and turn lock of the fs and SQLite stores: in-process, or a cluster primary's over IPC. */
export type LocalCoordination = Pick<Backends, 'events' | 'turnLock'>;

const inProcessCoordination = (): LocalCoordination => ({
  events: createInProcessEventBus(),
  turnLock: createInProcessTurnLock(),
});

async function open(
  config: Pick<ServerConfig, 'store' | 'dataDir' | 'databaseUrl' | 'lockConnections'>,
  logger: ServerLogger,
  local: () => LocalCoordination,
): Promise<Backends> {
  const store = await openStore(config, {
    onQuarantine: (report) => logger.warn({ quarantine: report }, 'damaged store lines set aside'),
  });
  try {
    const shared =
      config.store === 'postgres' && config.databaseUrl !== undefined
        ? {
            events: await createPostgresEventBus({ connectionString: config.databaseUrl, logger }),
            // Each running turn holds one; the turn cap is no higher (see turnCap), so none waits for one.
            turnLock: createPostgresTurnLock({
              connectionString: config.databaseUrl,
              maxConnections: config.lockConnections,
            }),
          }
        : local();
    return {
      store,
      ...shared,
      async close() {
        await Promise.allSettled([shared.events.close(), shared.turnLock.close()]);
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Turns this instance may run at once: on PostgreSQL, no more than it has lock connections for. */
export function turnCap(
  config: Pick<ServerConfig, 'store' | 'maxConcurrentTurns' | 'lockConnections'>,
): number {
  return config.store === 'postgres'
    ? Math.min(config.maxConcurrentTurns, config.lockConnections)
    : config.maxConcurrentTurns;
}
