// The servers the bench loads, one fresh process each. A scenario is its name and how to start its
// process: `start(settings)` → `{ baseURL, port, ask(type, payload?), close() }` (server-process.mjs),
// `ask` answering bench-server.mjs's IPC requests — every run asks `clock`, `loop-start`,
// `loop-stop` (CPU time of the whole server, all its processes if it has several) and `log`; only
// the main scenario `memory`, only a memory store `count`, only the breakdown `profile-*`. `store`
// (Cairn only) is the store it writes, which the lost-message check counts after the run (settings
// carry its directory, `storeDir`). Adding a server kind is one more function here and a line in
// run.mjs's list of runs.
import { join } from 'node:path';
import { describeStore } from './open-store.mjs';
import { startBenchServer } from './server-process.mjs';

const storeLabel = ({ kind, durability }) => (durability === undefined ? kind : `${kind}:${durability}`);

/** Cairn's app (createServerApp from ../dist) on `store` (open-store.mjs's `{ kind, durability? }`). */
export const cairn = (store) => ({
  name: `Cairn (${storeLabel(store)})`,
  description: describeStore(store),
  store,
  start: (settings) => startBenchServer({ ...settings, mode: 'cairn', store }),
});

/** The baseline: a bare Hono SSE endpoint streaming the same model, no runtime, store or middleware. */
export const peer = () => ({
  name: 'bare Hono peer',
  description: 'bare Hono SSE on @hono/node-server: no runtime, store, validation, auth or middleware',
  start: (settings) => startBenchServer({ ...settings, mode: 'bare' }),
});

/** `cairn-server --workers N`: its own cluster (bench-cluster.mjs) on `store`, with every worker's CPU. */
export const workers = (count, store) => ({
  name: `Cairn --workers ${count} (${storeLabel(store)})`,
  description: `cairn-server's cluster, ${count} workers, ${describeStore(store)}`,
  store,
  // The server opens its store under its data directory: fs in <dir>/store, SQLite <dir>/conversations.db.
  storeDir: (dataDir) => (store.kind === 'fs' ? join(dataDir, 'store') : dataDir),
  start: (settings) => startBenchServer({ ...settings, workers: count, store }, './bench-cluster.mjs'),
});
