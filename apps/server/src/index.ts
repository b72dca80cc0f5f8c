export {
  createServerApp,
  type ServerAppHandle,
  type ServerAppOptions,
} from './app/create-server-app.js';
export type { ServerApp } from './app/server-env.js';
export type { ConversationChanged, ConversationEventBus } from './events/conversation-events.js';
export { createInProcessEventBus } from './events/in-process-event-bus.js';
export { createPostgresEventBus, type PostgresEventBusOptions } from './events/postgres-event-bus.js';
export { createInProcessTurnLock } from './turns/in-process-turn-lock.js';
export { createPostgresTurnLock, type PostgresTurnLockOptions } from './turns/postgres-turn-lock.js';
export type { ConversationTurnLock } from './turns/turn-lock.js';
