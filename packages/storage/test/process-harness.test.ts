// The multi-process harness under a parent that reads late, as a busy test process does: the
// worker must not get ahead of the acks the parent can still read, or a SIGKILL loses acks of
// appends the store kept and the crash case's next trial reuses their ids.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatedDelay } from '@cairn/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const storage = new URL('../dist/index.js', import.meta.url).href;
// The built harness: it starts the built worker beside it (the sources have no .js to run).
const { startWorker } = (await import(
  new URL('../dist/testkit/process-harness.js', import.meta.url).href
)) as typeof import('../src/testkit/process-harness.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-kit-harness-'));
  // A memory store that records, in a file that outlives the worker, each batch it kept.
  await writeFile(
    join(dir, 'recording.mjs'),
    `import { appendFileSync } from 'node:fs';
import { createMemoryConversationStore } from '${storage}';
export const createLocation = async () => null;
export const openStore = async (location) => {
  const store = createMemoryConversationStore();
  const append = store.append.bind(store);
  store.append = async (conversationId, messages) => {
    const result = await append(conversationId, messages);
    appendFileSync(location.file, messages[0].id.split('-')[1] + '\\n');
    return result;
  };
  return store;
};`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a worker killed while its parent is not reading has kept at most one batch past its last ack', async () => {
  const kept = join(dir, 'kept.txt');
  const worker = startWorker({
    factoryModule: new URL(`file://${join(dir, 'recording.mjs')}`).href,
    location: { file: kept },
    conversationId: 'crash',
    writer: 'crasher',
    mode: 'crash',
    start: 0,
    count: 0,
  });
  await worker.waitForAcks(1);
  worker.child.stdout?.pause();
  // Long enough for thousands of memory appends, far more acks than a pipe holds.
  await simulatedDelay(300);
  worker.child.kill('SIGKILL');
  worker.child.stdout?.resume();
  expect((await worker.exited).code).toBeNull();
  const batches = (await readFile(kept, 'utf8')).trim().split('\n').map(Number);
  const lastAck = worker.acks.at(-1)?.n ?? -1;
  expect(batches.at(-1)).toBeLessThanOrEqual(lastAck + 1);
  expect(worker.acks.map((ack) => ack.n)).toEqual(batches.slice(0, worker.acks.length));
});
