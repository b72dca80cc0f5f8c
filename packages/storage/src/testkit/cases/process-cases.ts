import assert from 'node:assert/strict';
import type { ConversationMessage, ConversationStore } from '@cairn/core';
import { assertConsecutive } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { moduleHref, startWorker } from '../process-harness.js';
import { crashBatch, userMessage } from '../test-messages.js';

/** Every acknowledged batch is present, intact, at its acknowledged seqs; no batch is partial. */
async function checkAfterCrash(
  store: ConversationStore,
  writer: string,
  acked: { n: number; firstSeq: number }[],
  upTo: number,
) {
  const loaded = await store.load('crash');
  assertConsecutive(
    loaded.map((message) => message.seq),
    1,
  );
  const byId = new Map(loaded.map((message) => [message.id, message]));
  for (const { n, firstSeq } of acked) {
    crashBatch(writer, n).forEach((expected, index) => {
      const stored = byId.get(expected.id);
      assert.ok(stored, `acknowledged message ${expected.id} is missing`);
      assert.equal(stored.seq, firstSeq + index, 'an acknowledged message keeps its seq');
      assert.equal(stored.content, expected.content, 'an acknowledged message keeps its content');
    });
  }
  // The batch in flight at the kill landed whole or not at all.
  for (let n = 0; n < upTo; n++) {
    const present = crashBatch(writer, n).map((message) => byId.has(message.id));
    assert.ok(present.every(Boolean) || !present.some(Boolean), `batch ${n} landed partially`);
  }
}

/** The highest batch number of `writer`'s crash batches in `messages`, -1 when there is none. */
function lastBatch(messages: ConversationMessage[], writer: string): number {
  const pattern = new RegExp(`^${writer}-(\\d+)`);
  return messages.reduce((last, message) => Math.max(last, Number(pattern.exec(message.id)?.[1] ?? -1)), -1);
}

export const processCases: ConformanceCase[] = [
  {
    name: 'processes: concurrent writer processes on one conversation lose nothing and keep each writer’s order',
    requires: ['processes', 'concurrentInstances'],
    timeoutMs: 300_000,
    async run({ open, location, processes }) {
      assert.ok(processes, "the harness gives the processes' settings");
      const writers = processes.writers ?? 8;
      const perWriter = processes.appendsPerWriter ?? 1000;
      const handles = Array.from({ length: writers }, (_, index) =>
        startWorker({
          factoryModule: moduleHref(processes.factoryModule),
          location,
          conversationId: 'shared',
          writer: `w${index}`,
          mode: 'writer',
          start: 0,
          count: perWriter,
        }),
      );
      const exits = await Promise.all(handles.map((handle) => handle.exited));
      for (const [index, { code, stderr }] of exits.entries())
        assert.equal(code, 0, `writer ${index} failed: ${stderr}`);
      const loaded = await (await open()).load('shared');
      assert.equal(loaded.length, writers * perWriter, "every writer process's every append is stored");
      assertConsecutive(
        loaded.map((message) => message.seq),
        1,
      );
      handles.forEach((handle, index) => {
        const mine = loaded.filter((message) => message.id.startsWith(`w${index}-`));
        assert.deepEqual(
          mine.map((message) => message.id),
          Array.from({ length: perWriter }, (_, n) => `w${index}-${n}`),
          `writer ${index}'s order`,
        );
        assert.deepEqual(
          mine.map((message) => message.seq),
          handle.acks.map((ack) => ack.firstSeq),
          `writer ${index} was told the seqs it got`,
        );
      });
    },
  },
  {
    name: 'processes: a writer killed with SIGKILL at random moments loses no acknowledged append',
    requires: ['processes', 'persistent'],
    timeoutMs: 600_000,
    async run({ open, location, processes }) {
      assert.ok(processes, "the harness gives the processes' settings");
      const trials = processes.crashTrials ?? 50;
      const acked: { n: number; firstSeq: number }[] = [];
      let next = 0;
      for (let trial = 0; trial < trials; trial++) {
        const worker = startWorker({
          factoryModule: moduleHref(processes.factoryModule),
          location,
          conversationId: 'crash',
          writer: 'crasher',
          mode: 'crash',
          start: next,
          count: 0,
        });
        // Kill after a random number of acknowledged appends, plus a random number of turns of this
        // process's event loop, while the worker is inside the next one. Every fourth trial stops
        // reading the worker's acks during those turns, as a busy test process does.
        await worker.waitForAcks(Math.floor(Math.random() * 20));
        const readsLate = trial % 4 === 3;
        if (readsLate) worker.child.stdout?.pause();
        for (let turn = Math.floor(Math.random() * 200); turn > 0; turn--) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        worker.child.kill('SIGKILL');
        worker.child.stdout?.resume();
        const { code, stderr } = await worker.exited;
        assert.equal(code, null, `the worker exited by itself (trial ${trial}): ${stderr}`);
        acked.push(...worker.acks);
        const store = await open();
        // The store kept at most the batch in flight at the kill beyond the acknowledged ones.
        const lastAcked = worker.acks.at(-1)?.n ?? next - 1;
        const stored = lastBatch(await store.load('crash'), 'crasher');
        assert.ok(
          stored <= lastAcked + 1,
          `trial ${trial}: batch ${stored} is stored, the last acked is ${lastAcked}`,
        );
        // The next trial's batch numbers start past the one in flight at the kill.
        next += worker.acks.length + 1;
        await checkAfterCrash(store, 'crasher', acked, next);
        const { seqs } = await store.append('crash', [
          userMessage(`after-${trial}`, 'the conversation still opens'),
        ]);
        assert.equal(seqs.length, 1, 'the conversation takes appends after the crash');
        await store.close();
      }
      // The listing agrees with the log after all those crashes.
      const reopened = await open();
      const summary = (await reopened.listConversations()).conversations.find(
        (entry) => entry.id === 'crash',
      );
      const loaded = await reopened.load('crash');
      assert.equal(
        summary?.messageCount,
        loaded.length,
        "the listing's messageCount agrees with the log after the crashes",
      );
      assert.equal(
        summary?.lastSeq,
        loaded.at(-1)?.seq,
        "the listing's lastSeq agrees with the log after the crashes",
      );
    },
  },
];
