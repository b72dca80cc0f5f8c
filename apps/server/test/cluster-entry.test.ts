import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterHandle } from '../src/index.js';
import { pinnedWorker } from './support/pinned-worker.js';
import { tempDir } from './support/server-process.js';

// The built package, as the bench uses it: the workers run dist/cluster/cluster-worker-entry.js (the
// global setup builds it), which a primary started from the sources would not find.
const { readServerConfig, runClusterPrimary } = (await import(
  new URL('../dist/index.js', import.meta.url).href
)) as typeof import('../src/index.js');

const MODEL_MODULE = fileURLToPath(new URL('./support/scripted-model-module.mjs', import.meta.url));

let cluster: ClusterHandle | undefined;
let dataDir = '';

afterEach(async () => {
  await cluster?.shutdown();
  cluster = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** Two workers on a fresh data directory, each with the model of `MODEL_MODULE`. */
async function startCluster(name: string): Promise<ClusterHandle> {
  dataDir = tempDir(name);
  const config = readServerConfig(
    { insecureLocal: true, port: '0', workers: '2', dataDir, logLevel: 'silent', web: false },
    {},
    { cwd: dataDir },
  );
  return runClusterPrimary({ config, logger: pino({ level: 'silent' }), modelModule: MODEL_MODULE });
}

describe('runClusterPrimary (the entry the bench uses)', () => {
  it('starts workers with the model of a module, answers on each, reports each worker’s load, and stops them', async () => {
    cluster = await startCluster('cluster-entry');
    expect(cluster.modelFrom).toMatch(/given to startServer/);
    expect(cluster.workerIds()).toHaveLength(2);

    const answers = new Set<string>();
    for (const id of cluster.workerIds()) {
      const worker = await pinnedWorker(cluster.url, String(id));
      const response = await worker.request(`/v1/conversations/c-${id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      });
      const body = (await response.json()) as { message?: { content: string } };
      answers.add(body.message?.content ?? '');
      worker.close();
    }
    const stats = await cluster.stats();
    expect(stats.map((entry) => entry.workerId)).toEqual(cluster.workerIds());
    // Each worker answered with its own model (its pid), and counts its own CPU time and loop delay.
    expect([...answers].sort()).toEqual(stats.map((entry) => `scripted in ${entry.pid}`).sort());
    for (const entry of stats) {
      expect(entry.cpuUserMicros).toBeGreaterThan(0);
      expect(entry.eventLoopDelayMs.max).toBeGreaterThanOrEqual(entry.eventLoopDelayMs.p50);
      expect(entry.activeTurns).toBe(0);
    }

    const stopping = cluster;
    cluster = undefined;
    expect(await stopping.shutdown()).toEqual({ abortedTurns: 0 });
    expect(stopping.workerIds()).toEqual([]);
  });

  it('reports each worker’s event-loop delay since the last reset, and resets it after answering when asked', async () => {
    cluster = await startCluster('cluster-entry-reset');
    const [blocked] = cluster.workerIds();
    const worker = await pinnedWorker(cluster.url, String(blocked));
    const response = await worker.request('/v1/conversations/c-blocked/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'block 400' }),
    });
    expect(response.status).toBe(200);
    worker.close();
    const maxOf = (stats: Awaited<ReturnType<ClusterHandle['stats']>>) =>
      stats.find((entry) => entry.workerId === blocked)?.eventLoopDelayMs.max ?? Number.NaN;

    expect(maxOf(await cluster.stats())).toBeGreaterThanOrEqual(300);
    // The window's figures come first, then it starts afresh: a bench measures phase by phase.
    expect(maxOf(await cluster.stats({ resetLoopDelay: true }))).toBeGreaterThanOrEqual(300);
    expect(maxOf(await cluster.stats())).toBeLessThan(300);
  });
});
