import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../config/read-server-config.js';
import { workerShare } from './worker-share.js';

const config = (flags: Record<string, string>) =>
  readServerConfig({ insecureLocal: true, ...flags }, {}, { cwd: '/tmp' });

describe('workerShare', () => {
  it('gives each worker its share of the limits, so they hold for the whole server', () => {
    const share = workerShare(
      config({ workers: '4', maxConcurrentTurns: '64', lockConnections: '32', rateLimit: '20:40' }),
    );
    expect(share).toMatchObject({
      maxConcurrentTurns: 16,
      lockConnections: 8,
      rateLimit: { requestsPerSecond: 5, burst: 10 },
    });
  });

  it('shares the default rate limit, keeps `off`, and never goes below 1', () => {
    expect(workerShare(config({ workers: '2' })).rateLimit).toEqual({ requestsPerSecond: 10, burst: 20 });
    expect(workerShare(config({ workers: '2', rateLimit: 'off' })).rateLimit).toBe(false);
    expect(workerShare(config({ workers: '8', maxConcurrentTurns: '3' })).maxConcurrentTurns).toBe(1);
  });

  it('defaults --workers to the number of cores, and reads CAIRN_WORKERS', () => {
    expect(config({}).workers).toBe(availableParallelism());
    expect(readServerConfig({ insecureLocal: true }, { CAIRN_WORKERS: '3' }, { cwd: '/tmp' }).workers).toBe(
      3,
    );
    expect(() => config({ workers: '0' })).toThrow(/--workers \/ CAIRN_WORKERS/);
  });
});
