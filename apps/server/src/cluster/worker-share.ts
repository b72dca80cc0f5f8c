import { DEFAULT_RATE_LIMIT } from '../app/middleware/rate-limit.js';
import type { ServerConfig } from '../config/server-config.js';

/**
 * One worker's configuration: the limits a user configures hold for the whole server, so each of N
 * workers gets an Nth of the turn cap, of the PostgreSQL lock connections, and of every caller's rate
 * (a caller whose requests all reach one worker gets that worker's share; the cluster spreads
 * connections round-robin). Each share is at least 1.
 */
export function workerShare(config: ServerConfig): ServerConfig {
  const n = config.workers;
  const share = (total: number) => Math.max(1, Math.floor(total / n));
  const rate = config.rateLimit ?? DEFAULT_RATE_LIMIT;
  return {
    ...config,
    maxConcurrentTurns: share(config.maxConcurrentTurns),
    lockConnections: share(config.lockConnections),
    rateLimit:
      rate === false ? false : { requestsPerSecond: rate.requestsPerSecond / n, burst: share(rate.burst) },
  };
}
