// The servers the bench loads, one fresh process each. A scenario is its name and how to start its
// process: `start(settings)` → `{ baseURL, port, ask(type, payload?), close() }` (server-process.mjs),
// `ask` answering bench-server.mjs's IPC requests — every run asks `clock`, `loop-start`,
// `loop-stop` (CPU time of the whole server, all its processes if it has several) and `log`; only
// the main scenario `memory`, only a memory store `count`, only the breakdown `profile-*`. `store`
// (Cairn only) is the store it writes, which the lost-message check counts after the run (settings
// carry its directory, `storeDir`). Adding a server kind is one more function here and a line in
// run.mjs's list of runs.
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
