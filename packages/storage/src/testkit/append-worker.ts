// A child process of the multi-process tests: opens its own store over the location it is given
// and appends, printing one line per append that returned ("ok <n> <firstSeq> <count>"), so the
// parent knows exactly which appends a store promised to keep.
import type { ConversationStore } from '@cairn/core';
import type { AppendWorkerArgs } from './process-harness.js';
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

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as AppendWorkerArgs;
  const factory = (await import(args.factoryModule)) as StoreFactory;
  const store: ConversationStore = await factory.openStore(args.location);
  const end = args.mode === 'crash' ? Number.POSITIVE_INFINITY : args.start + args.count;
  for (let n = args.start; n < end; n++) {
    const batch =
      args.mode === 'crash'
        ? crashBatch(args.writer, n)
        : [userMessage(`${args.writer}-${n}`, `${args.writer} ${n}`)];
    const { seqs } = await store.append(args.conversationId, batch);
    await report(`ok ${n} ${seqs[0]} ${seqs.length}\n`);
  }
  await store.close();
}

await main();
