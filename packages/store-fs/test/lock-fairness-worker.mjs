// A child process of the lock fairness test (src/lock-fairness.test.ts), over the built package.
//   busy:   appends to `shared` in a tight loop until the parent creates the stop file, then writes
//           when each of its appends returned to `busy-ends.bin` (a Float64Array) and prints their
//           count. It prints `ready` once warmed up.
//   waiter: warms up (a conversation of its own, then one append to `shared`, which reads the whole
//           log), then appends to `shared` `count` times, each followed by an append to its own
//           conversation, with short pauses; prints when each append to `shared` began and returned
//           and how long each of its own took, or the error that ended the run.
// Times are epoch milliseconds with sub-millisecond precision, comparable between the two processes.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulatedDelay } from '@cairn/testing';
import { createFsConversationStore } from '../dist/index.js';

const { rootDir, role, count, size, durability } = JSON.parse(process.argv[2] ?? '{}');
const store = createFsConversationStore({ rootDir, durability, lockTimeoutMs: 10_000 });
const now = () => performance.timeOrigin + performance.now();
const content = 'x'.repeat(size);
let n = 0;
const message = () => ({ id: `${role}-${n++}`, role: 'user', content, createdAt: new Date().toISOString() });
const print = (value) =>
  new Promise((resolve) => process.stdout.write(`${JSON.stringify(value)}\n`, resolve));

if (role === 'busy') {
  const stopFile = join(rootDir, 'stop');
  const deadline = now() + 120_000;
  let ends = new Float64Array(1 << 14);
  let appends = 0;
  while (!existsSync(stopFile) && now() < deadline) {
    await store.append('shared', [message()]);
    if (appends === ends.length) {
      const grown = new Float64Array(ends.length * 2);
      grown.set(ends);
      ends = grown;
    }
    ends[appends++] = now();
    if (appends === 50) await print({ ready: true });
  }
  writeFileSync(join(rootDir, 'busy-ends.bin'), ends.subarray(0, appends));
  await print({ appends });
} else {
  for (let warm = 0; warm < 50; warm++) await store.append('own', [message()]);
  const spans = [];
  const alone = [];
  let error;
  // Each append to `shared` is followed by one to a conversation of its own, which waits for no
  // lock: how long an append takes on this machine at this moment, without contention.
  for (let i = -1; i < count; i++) {
    const start = now();
    try {
      await store.append('shared', [message()]);
    } catch (caught) {
      error = { code: caught.code, message: caught.message, waitedMs: now() - start, appended: i + 1 };
      break;
    }
    if (i >= 0) spans.push([start, now()]);
    // Not a tight loop: the lock goes back to the busy writer between these appends.
    await simulatedDelay(1 + Math.random() * 2);
    const ownStart = now();
    await store.append('own', [message()]);
    if (i >= 0) alone.push(now() - ownStart);
    await simulatedDelay(1 + Math.random() * 2);
  }
  await print({ spans, alone, error });
}
await store.close();
