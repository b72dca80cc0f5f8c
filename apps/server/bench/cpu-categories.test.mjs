import { describe, expect, it } from 'vitest';
import { CATEGORIES, categorise, cpuBreakdown } from './cpu-categories.mjs';

const frame = (url, functionName = 'f') => ({ functionName, url });

describe('categorise', () => {
  it.each([
    [frame('', '(idle)'), 'idle'],
    [frame('', '(garbage collector)'), 'GC'],
    [frame('', '(program)'), 'node internals (http, net, timers, native)'],
    [frame('', 'stringify'), 'JSON'],
    [frame('', 'parse'), 'JSON'],
    [frame('file:///w/node_modules/.pnpm/zod@4.1.0/node_modules/zod/v4/core/schemas.js'), 'zod validation'],
    [frame('file:///w/packages/store-fs/dist/append-log.js'), 'store-fs + storage'],
    [frame('file:///app/node_modules/@cairn/storage/dist/index.js'), 'store-fs + storage'],
    [frame('file:///w/packages/store-sqlite/dist/store.js'), 'store-sqlite'],
    [frame('file:///w/packages/runtime/dist/runtime.js'), 'runtime, loop, message-processor, context'],
    [frame('file:///w/packages/message-processor/dist/x.js'), 'runtime, loop, message-processor, context'],
    [frame('file:///w/apps/server/bench/stamped-model.mjs'), 'model (bench model, provider-utils)'],
    [frame('file:///w/packages/provider-utils/dist/model-stream.js'), 'model (bench model, provider-utils)'],
    [frame('file:///w/apps/server/dist/app/http/sse-writer.js'), 'SSE writing (Cairn, hono/streaming)'],
    [
      frame('file:///w/node_modules/hono/dist/helper/streaming/sse.js'),
      'SSE writing (Cairn, hono/streaming)',
    ],
    [frame('node:internal/webstreams/readablestream'), 'web streams (node:internal/webstreams)'],
    [frame('file:///w/apps/server/dist/app/routes/messages.js'), 'Cairn server routes + middleware'],
    [frame('file:///w/node_modules/hono/dist/hono-base.js'), 'hono + node-server routing, middleware'],
    [
      frame('file:///w/node_modules/@hono/node-server/dist/index.mjs'),
      'hono + node-server routing, middleware',
    ],
    [
      frame('file:///w/node_modules/@hono/zod-openapi/dist/index.js'),
      'hono + node-server routing, middleware',
    ],
    [
      frame('file:///w/node_modules/pino/lib/proto.js'),
      'telemetry, metrics, logging (otel, prom-client, pino)',
    ],
    [
      frame('file:///w/node_modules/prom-client/lib/counter.js'),
      'telemetry, metrics, logging (otel, prom-client, pino)',
    ],
    [frame('file:///w/packages/otel/dist/index.js'), 'telemetry, metrics, logging (otel, prom-client, pino)'],
    [frame('file:///w/apps/server/bench/bench-server.mjs'), 'bench harness (IPC, profiler)'],
    [frame('node:_http_outgoing'), null],
    [frame('', 'fdatasync'), null],
    [frame('file:///w/node_modules/some-lib/index.js'), 'other'],
    [frame('C:\\w\\packages\\store-fs\\dist\\a.js'), 'store-fs + storage'],
  ])('%o is %s', (callFrame, category) => {
    expect(categorise(callFrame)).toBe(category);
    if (category !== null) expect(CATEGORIES).toContain(category);
  });
});

describe('cpuBreakdown', () => {
  it("charges node's own functions to the nearest caller with a category, else to node internals", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('', '(root)'), children: [2, 5] },
        { id: 2, callFrame: frame('file:///w/packages/store-fs/dist/append.js'), children: [3] },
        { id: 3, callFrame: frame('node:fs', 'fdatasyncSync'), children: [4] },
        { id: 4, callFrame: frame('', 'fdatasync') },
        { id: 5, callFrame: frame('node:internal/timers', 'processTimers'), children: [6] },
        { id: 6, callFrame: frame('', 'writev') },
      ],
      startTime: 0,
      samples: [4, 3, 6, 5],
      timeDeltas: [0, 1_000, 1_000, 1_000],
      endTime: 4_000,
    };
    const { selfMs } = cpuBreakdown(profile);
    expect(selfMs['store-fs + storage']).toBe(2);
    expect(selfMs['node internals (http, net, timers, native)']).toBe(2);
  });

  it('gives each sample the time until the next one (the last: until the end) to its category', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('', '(root)'), children: [2, 3, 4] },
        { id: 2, callFrame: frame('', '(idle)') },
        { id: 3, callFrame: frame('file:///w/packages/store-fs/dist/a.js') },
        { id: 4, callFrame: frame('', 'stringify') },
      ],
      startTime: 1_000,
      // Samples at 1,000, 3,000, 4,000 and 8,000 µs; the profile ends at 10,000 µs.
      samples: [3, 2, 4, 3],
      timeDeltas: [0, 2_000, 1_000, 4_000],
      endTime: 10_000,
    };
    const { selfMs, totalMs, busyMs } = cpuBreakdown(profile);
    expect(selfMs['store-fs + storage']).toBe(2 + 2);
    expect(selfMs.idle).toBe(1);
    expect(selfMs.JSON).toBe(4);
    expect(selfMs.GC).toBe(0);
    expect(totalMs).toBe(9);
    expect(busyMs).toBe(8);
  });
});
