// The servers the bench loads, one fresh process each. A scenario is its name and how to start its
// process: `start(settings)` → `{ baseURL, port, ask(type, payload?), close() }` (server-process.mjs),
// `ask` answering bench-server.mjs's IPC requests; `store` (Cairn only) is the store it writes, which
// the lost-message check counts after the run. Adding a server kind is one more function here.
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
