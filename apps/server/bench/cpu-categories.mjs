// Buckets a V8 CPU profile's self time into categories a reader of the bench understands. A
// profile node is one function at one place in the call tree; its self time is the time sampled
// while that function itself (not a callee) was running. Rules are tried in order, first match
// wins, on the function's script url (a file path, `file://…` or `node:…`) and name. Node's own
// JavaScript and native functions (`node:…`, no url: fdatasync, writev, symlink…) belong to no
// category of their own: their time is charged to the nearest caller that has one, so a store's
// synchronous fsync counts as the store's, and what no library called (the HTTP parser, timers,
// socket writes from the microtask queue) as node internals.

const NODE_INTERNALS = 'node internals (http, net, timers, native)';

/** [category, test(callFrame)] in order (null: charged to the caller); the last catches everything. */
const RULES = [
  ['idle', ({ functionName }) => functionName === '(idle)'],
  ['GC', ({ functionName }) => functionName === '(garbage collector)'],
  // Time V8 attributes to no JavaScript function: native code of node and V8 (I/O, the loop).
  [NODE_INTERNALS, ({ functionName }) => functionName === '(program)'],
  [
    'JSON',
    ({ functionName, url }) => url === '' && (functionName === 'stringify' || functionName === 'parse'),
  ],
  ['zod validation', ({ url }) => /\/zod\//.test(url)],
  ['store-fs + storage', ({ url }) => /\/(?:packages|@cairn)\/(?:store-fs|storage)\//.test(url)],
  ['store-sqlite', ({ url }) => /\/(?:packages|@cairn)\/store-sqlite\//.test(url) || url === 'node:sqlite'],
  [
    'runtime, loop, message-processor, context',
    ({ url }) =>
      /\/(?:packages|@cairn)\/(?:runtime|loop|message-processor|context-builder|compression|agent-executor|core)\//.test(
        url,
      ),
  ],
  // The bench's scripted model and the stream machinery every provider adapter shares.
  [
    'model (bench model, provider-utils)',
    ({ url }) => /\/bench\/stamped-model\.mjs$|\/provider-utils\//.test(url),
  ],
  [
    'SSE writing (Cairn, hono/streaming)',
    ({ url }) =>
      /\/apps\/server\/dist\/app\/(?:http\/sse-writer|turns\/turn-event-stream|streams\/)/.test(url) ||
      /\/hono\/dist\/(?:helper\/streaming\/|utils\/stream\.js)/.test(url),
  ],
  ['web streams (node:internal/webstreams)', ({ url }) => url.startsWith('node:internal/webstreams/')],
  ['Cairn server routes + middleware', ({ url }) => /\/apps\/server\/dist\//.test(url)],
  ['hono + node-server routing, middleware', ({ url }) => /\/(?:hono|@hono\/[\w-]+)\/dist\//.test(url)],
  [
    'telemetry, metrics, logging (otel, prom-client, pino)',
    ({ url }) =>
      /\/(?:@opentelemetry\/[\w-]+|prom-client|pino)\//.test(url) ||
      /\/(?:packages|@cairn)\/otel\//.test(url),
  ],
  // The bench's own server-side code: its IPC answers and starting the profiler.
  ['bench harness (IPC, profiler)', ({ url }) => /\/bench\/bench-server\.mjs$/.test(url)],
  [null, ({ url }) => url.startsWith('node:') || url === ''],
  ['other', () => true],
];

/** The categories in the order they are printed (each once). */
export const CATEGORIES = [
  ...new Set(RULES.map(([category]) => category).filter((category) => category !== null)),
];

/** The category of a profile node's callFrame `{ functionName, url }`; null: its caller's. */
export function categorise(callFrame) {
  const url = callFrame.url.replaceAll('\\', '/');
  return RULES.find(([, test]) => test({ functionName: callFrame.functionName, url }))[0];
}

/**
 * Self time per category (ms) of a `.cpuprofile` (`{ nodes, samples, timeDeltas, endTime }`, times
 * in µs). Sample i stands for the time until the next sample (the last: until endTime), as DevTools
 * counts it. Returns every category, with 0 for those never sampled, and the profile's total.
 */
export function cpuBreakdown(profile) {
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const categoryOf = new Map();
  const resolve = (id) => {
    if (id === undefined) return NODE_INTERNALS;
    if (!categoryOf.has(id))
      categoryOf.set(id, categorise(nodes.get(id).callFrame) ?? resolve(parentOf.get(id)));
    return categoryOf.get(id);
  };
  const selfMs = Object.fromEntries(CATEGORIES.map((category) => [category, 0]));
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((nodeId, index) => {
    const until = index + 1 < times.length ? times[index + 1] : profile.endTime;
    selfMs[resolve(nodeId)] += Math.max(0, until - times[index]) / 1000;
  });
  const totalMs = Object.values(selfMs).reduce((sum, value) => sum + value, 0);
  return { selfMs, totalMs, busyMs: totalMs - selfMs.idle };
}
