// A child process of the multi-process tests: opens its own store over the location it is given
// and appends, printing one line per append that returned ("ok <n> <firstSeq> <count>"), so the
// parent knows exactly which appends a store promised to keep.
import { CairnError, type ConversationStore } from '@cairn/core';
import { type AppendWorkerArgs, RACE_MESSAGE_ID } from './process-harness.js';
import type { StoreFactory } from './store-factory.js';
import { crashBatch, userMessage } from './test-messages.js';

/**
 * Resolves once the line is in the pipe. A pipe is non-blocking: when the parent reads late and the
 * pipe is full, Node queues the write in this process's memory, and a SIGKILL then loses acks of
 * appends that were kept (a 200 ms pause of the parent's reads lost 1,800 of them). Waiting keeps
 * this process at most one append ahead of what the parent can read.
 */
function report(line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(line, (error) => (error ? reject(error) : resolve()));
  });
}

async function appendAll(store: ConversationStore, args: AppendWorkerArgs): Promise<void> {
  const end = args.mode === 'crash' ? Number.POSITIVE_INFINITY : args.start + args.count;
  for (let n = args.start; n < end; n++) {
    const batch =
      args.mode === 'crash'
        ? crashBatch(args.writer, n)
        : [userMessage(`${args.writer}-${n}`, `${args.writer} ${n}`)];
    const { seqs } = await store.append(args.conversationId, batch);
    await report(`ok ${n} ${seqs[0]} ${seqs.length}\n`);
  }
}

// Every racer has opened its store (and the store has migrated or recovered) before the start, so
// the appends meet at the store rather than in turn as the processes come up.
async function raceAppend(store: ConversationStore, args: AppendWorkerArgs): Promise<void> {
  await store.load(args.conversationId);
  while (Date.now() < (args.startAt ?? 0)) await new Promise((resolve) => setImmediate(resolve));
  try {
    const { seqs } = await store.append(args.conversationId, [userMessage(RACE_MESSAGE_ID, args.writer)]);
    await report(`ok 0 ${seqs[0]} ${seqs.length}\n`);
  } catch (error) {
    if (!CairnError.is(error, 'STORE_CONFLICT')) throw error;
    await report('conflict\n');
  }
}

async function holdLease(store: ConversationStore, args: AppendWorkerArgs): Promise<void> {
  if (store.leases === undefined) throw new Error('the store has no leases');
  const lease = await store.leases.acquire(args.conversationId, {
    owner: args.writer,
    ttlMs: args.ttlMs ?? 1000,
  });
  if (lease === undefined) throw new Error(`the lease ${args.conversationId} is held by another owner`);
  await report(`leased ${lease.epoch} ${lease.expiresAt}\n`);
  // Held, never renewed or released, until the parent kills this process.
  setInterval(() => {}, 1 << 30);
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as AppendWorkerArgs;
  const factory = (await import(args.factoryModule)) as StoreFactory;
  const store: ConversationStore = await factory.openStore(args.location);
  if (args.mode === 'lease') return holdLease(store, args);
  if (args.mode === 'race') await raceAppend(store, args);
  else await appendAll(store, args);
  await store.close();
}

await main();
