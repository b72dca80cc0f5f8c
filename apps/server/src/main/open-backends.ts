import { openStore } from '@cairn/connect';
import type { ConversationStore } from '@cairn/core';
import type { ServerLogger } from '../app/server-env.js';
import type { ServerConfig } from '../config/server-config.js';
import type { ConversationEventBus } from '../events/conversation-events.js';
import { createInProcessEventBus } from '../events/in-process-event-bus.js';
import { createPostgresEventBus } from '../events/postgres-event-bus.js';
import { createInProcessTurnLock } from '../turns/in-process-turn-lock.js';
import { createPostgresTurnLock } from '../turns/postgres-turn-lock.js';
import type { ConversationTurnLock } from '../turns/turn-lock.js';

export interface Backends {
  store: ConversationStore;
  events: ConversationEventBus;
  turnLock: ConversationTurnLock;
  close(): Promise<void>;
}

/**
 * The store, and what instances must share: on PostgreSQL the event bus (LISTEN/NOTIFY) and the
 * turn locks (advisory locks), so several server processes can serve one database. The fs and
 * SQLite stores belong to one process, so their bus and locks are in-process.
 */
export async function openBackends(
  config: Pick<ServerConfig, 'store' | 'dataDir' | 'databaseUrl' | 'maxConcurrentTurns'>,
  logger: ServerLogger,
): Promise<Backends> {
  const store = await openStore(config, {
    onQuarantine: (report) => logger.warn({ quarantine: report }, 'damaged store lines set aside'),
  });
  try {
    const shared =
      config.store === 'postgres' && config.databaseUrl !== undefined
        ? {
            events: await createPostgresEventBus({ connectionString: config.databaseUrl, logger }),
            // One lock connection per turn this instance may run, so waiting turns never starve running ones.
            turnLock: createPostgresTurnLock({
              connectionString: config.databaseUrl,
              maxConnections: config.maxConcurrentTurns,
            }),
          }
        : { events: createInProcessEventBus(), turnLock: createInProcessTurnLock() };
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
