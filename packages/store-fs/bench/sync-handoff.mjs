// node --expose-gc bench/sync-handoff.mjs   (after a build)
// What handing a sync to another thread costs the event loop: the same load (100 conversations
// appending turn after turn, durability 'append', the same group commit per file) through three
// syncers, rounds interleaved, medians:
//   postMessage  the worker pool that gets each sync as a message and replies with one (the
//                store's first implementation, kept here as the baseline);
//   shared       a SharedArrayBuffer ring read by sleeping threads (the main thread wakes one at
//                most once per event-loop tick, only when all sleep; a thread that takes a sync
//                while more wait wakes a peer), completions counted in shared memory, one
//                Atomics.waitAsync wake-up for many (SharedSyncQueue);
//   libuv        plain fs.fdatasync on libuv's pool (4 threads, shared with all other fs calls);
//   none         the same appends with durability 'none': the appends' own cost, no sync.
// Main-thread CPU is the main thread's own time on a core, and beside it its time runnable but
// waiting for one (/proc/self/task/<pid>/schedstat; Node 20 has no process.threadCpuUsage);
// process.cpuUsage() counts every thread, the sync threads included; eventLoopUtilization() is the
// loop's active share of the wall time (on a core, waiting for one, or blocked in a syscall).
import { fdatasync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { benchMessage } from '@cairn/bench';
import { FsConversationStore } from '../dist/fs-conversation-store.js';
import { SharedSyncQueue } from '../dist/shared-sync-queue.js';
import { PostMessageSyncPool } from './post-message-sync-pool.mjs';

const CONVERSATIONS = 100;
const PER_CONVERSATION = Number(process.env.HANDOFF_PER_CONVERSATION ?? 20);
const ROUNDS = Number(process.env.HANDOFF_ROUNDS ?? 5);
const sizes = [300, 1200, 4000, 800];
const fdatasyncAsync = promisify(fdatasync);
const syncers = {
  postMessage: () => new PostMessageSyncPool(),
  shared: () => new SharedSyncQueue(),
  libuv: () => ({ sync: (fd) => fdatasyncAsync(fd), close: async () => undefined }),
  // The same appends into a durability 'none' store (no sync at all): what the appends cost alone.
  none: () => undefined,
};

// The main thread's time on a CPU and waiting for one (runnable, another thread or process on
// the cores), in µs: /proc's schedstat, in ns.
function mainThreadSched() {
  const [onCpu, runnable] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
  return { onCpu: Number(onCpu) / 1000, runnable: Number(runnable) / 1000 };
}

const root = await mkdtemp(join(tmpdir(), 'cairn-fs-handoff-'));
let messageId = 0;
// HANDOFF_SYNCERS=shared,none runs only those (for a CPU profile of one, say).
const chosen = process.env.HANDOFF_SYNCERS?.split(',') ?? Object.keys(syncers);
const results = Object.fromEntries(chosen.map((name) => [name, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    const names = chosen;
    // Rotate the order so no syncer always runs first (or right after another's dirty pages).
    const order = names.map((_, index) => names[(index + round) % names.length]);
    for (const name of order) {
      const syncer = syncers[name]();
      const store = new FsConversationStore(
        { rootDir: join(root, `${name}-${round}`), durability: syncer === undefined ? 'none' : 'append' },
        syncer === undefined ? {} : { syncer },
      );
      // Logs created and threads started before timing: the steady state is measured.
      await Promise.all(
        Array.from({ length: CONVERSATIONS }, (_, index) =>
          store.append(`c${index}`, [benchMessage(`w${messageId++}`, 300)]),
        ),
      );
      const messages = Array.from({ length: CONVERSATIONS * PER_CONVERSATION }, (_, index) =>
        benchMessage(`m${messageId++}`, sizes[index % sizes.length]),
      );
      globalThis.gc?.();
      const wakeUps = syncer?.wakeUps?.notified;
      const cpu = process.cpuUsage();
      const sched = mainThreadSched();
      const elu = performance.eventLoopUtilization();
      const start = performance.now();
      await Promise.all(
        Array.from({ length: CONVERSATIONS }, async (_, index) => {
          for (let turn = 0; turn < PER_CONVERSATION; turn++) {
            await store.append(`c${index}`, [messages[index * PER_CONVERSATION + turn]]);
          }
        }),
      );
      const wallMs = performance.now() - start;
      const loop = performance.eventLoopUtilization(elu);
      const allCpu = process.cpuUsage(cpu);
      const count = CONVERSATIONS * PER_CONVERSATION;
      results[name].push({
        perSecond: (count / wallMs) * 1000,
        mainCpuUs: (mainThreadSched().onCpu - sched.onCpu) / count,
        runnableUs: (mainThreadSched().runnable - sched.runnable) / count,
        eluActiveUs: (loop.active * 1000) / count,
        elu: loop.utilization,
        processCpuUs: (allCpu.user + allCpu.system) / count,
        // Threads woken by the main thread (the shared queue counts them), per 100 appends.
        mainWakeUps: wakeUps === undefined ? undefined : ((syncer.wakeUps.notified - wakeUps) / count) * 100,
      });
      await store.close();
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = Object.entries(results).map(([name, runs]) => ({
  syncer: name,
  'appends/s': Math.round(median(runs.map((run) => run.perSecond))),
  'main CPU µs/append': Math.round(median(runs.map((run) => run.mainCpuUs))),
  'main waiting for a core µs/append': Math.round(median(runs.map((run) => run.runnableUs))),
  'loop active µs/append': Math.round(median(runs.map((run) => run.eluActiveUs))),
  'loop utilization': Number(median(runs.map((run) => run.elu)).toFixed(2)),
  'process CPU µs/append': Math.round(median(runs.map((run) => run.processCpuUs))),
  'main thread wake-ups /100 appends':
    runs[0]?.mainWakeUps === undefined ? '–' : Number(median(runs.map((run) => run.mainWakeUps)).toFixed(1)),
}));
console.table(rows);
console.log(
  JSON.stringify({ bench: 'sync-handoff', rounds: ROUNDS, appends: CONVERSATIONS * PER_CONVERSATION, rows }),
);
