export type { AgentSessionAgent, AgentSessionsOptions } from './app/agent-sessions/agent-session-options.js';
export {
  createServerApp,
  type ServerAppHandle,
  type ServerAppOptions,
} from './app/create-server-app.js';
export type { CorsOptions } from './app/middleware/cors-options.js';
export { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './app/middleware/rate-limit.js';
export type { ServerApp } from './app/server-env.js';
export type { SseStreamLimits } from './app/streams/sse-writer.js';
export type { WorkerStats } from './cluster/cluster-messages.js';
export { type ClusterHandle, type ClusterOptions, runClusterPrimary } from './cluster/run-cluster-primary.js';
export { readServerConfig, type ServerFlags } from './config/read-server-config.js';
export { type ServerConfig, ServerConfigSchema } from './config/server-config.js';
export type { ConversationChanged, ConversationEventBus } from './events/conversation-events.js';
export { createInProcessEventBus } from './events/in-process-event-bus.js';
export { createPostgresEventBus, type PostgresEventBusOptions } from './events/postgres-event-bus.js';
export { type RunningServer, type StartServerOptions, startServer } from './main/start-server.js';
export { createInProcessTurnLock } from './turn-lock/in-process-turn-lock.js';
export { createPostgresTurnLock, type PostgresTurnLockOptions } from './turn-lock/postgres-turn-lock.js';
export type { ConversationTurnLock } from './turn-lock/turn-lock.js';
