import assert from 'node:assert/strict';
import type { ConformanceCase } from '../conformance-case.js';
import { moduleHref, RACE_MESSAGE_ID, startWorker } from '../process-harness.js';
import { acquireOnceLapsed, leasesOf } from './lease-cases.js';

/** The ttl of the lease the killed process holds: the other owner may wait this long for it. */
const KILLED_HOLDER_TTL_MS = 2_000;
const RACERS = 6;
/** When the racers append, from their start: time for each to start Node and open its store. */
const RACE_START_DELAY_MS = 3_000;

/** Cases where several processes meet on one key: the run lease, a message id. */
export const processRaceCases: ConformanceCase[] = [
  {
    name: 'processes: a lease held by a killed process goes to another owner once it lapses, with the next epoch',
    requires: ['processes', 'leases', 'concurrentInstances'],
    async run({ open, location, processes }) {
      assert.ok(processes, "the harness gives the processes' settings");
      const worker = startWorker({
        factoryModule: moduleHref(processes.factoryModule),
        location,
        conversationId: 'run-killed',
        writer: 'doomed-owner',
        mode: 'lease',
        start: 0,
        count: 0,
        ttlMs: KILLED_HOLDER_TTL_MS,
      });
      let holder: string[];
      try {
        const line = await worker.waitForLine('leased ');
        // Built only on failure: the exit of a worker holding its lease never comes by itself.
        if (line === undefined) assert.fail(`the worker took no lease: ${(await worker.exited).stderr}`);
        holder = line.split(' ');
        assert.deepEqual(
          await leasesOf(await open()).read('run-killed'),
          { owner: 'doomed-owner', epoch: Number(holder[1]), expiresAt: holder[2] },
          'this process sees the worker holding the lease',
        );
      } finally {
        worker.child.kill('SIGKILL');
      }
      const { code } = await worker.exited;
      assert.equal(code, null, 'the worker was killed');
      const [, epoch = '', expiresAt = ''] = holder;
      const leases = leasesOf(await open());
      // Within its ttl and a margin; the fs store takes it at once, its holder's pid being dead.
      const taken = await acquireOnceLapsed(leases, 'run-killed', 'survivor', expiresAt);
      assert.equal(taken.epoch, Number(epoch) + 1, 'the survivor is the next epoch');
      assert.equal((await leases.read('run-killed'))?.owner, 'survivor');
    },
  },
  {
    name: 'processes: racing processes append one message id: one succeeds, the others get STORE_CONFLICT',
    requires: ['processes', 'concurrentInstances'],
    timeoutMs: 60_000,
    async run({ open, location, processes }) {
      assert.ok(processes, "the harness gives the processes' settings");
      const startAt = Date.now() + RACE_START_DELAY_MS;
      const workers = Array.from({ length: RACERS }, (_, index) =>
        startWorker({
          factoryModule: moduleHref(processes.factoryModule),
          location,
          conversationId: 'raced',
          writer: `racer-${index}`,
          mode: 'race',
          start: 0,
          count: 1,
          startAt,
        }),
      );
      const exits = await Promise.all(workers.map((worker) => worker.exited));
      for (const [index, { code, stderr }] of exits.entries())
        assert.equal(code, 0, `racer ${index} failed: ${stderr}`);
      const winners = workers.flatMap((worker, index) => (worker.acks.length > 0 ? [index] : []));
      assert.equal(winners.length, 1, `exactly one racer's append succeeds, not ${winners.length}`);
      const conflicts = workers.filter((worker) => worker.lines.includes('conflict')).length;
      assert.equal(conflicts, RACERS - 1, 'every other racer got STORE_CONFLICT');
      const loaded = await (await open()).load('raced');
      assert.deepEqual(
        loaded.map((message) => [message.id, message.seq, message.content]),
        [[RACE_MESSAGE_ID, 1, `racer-${winners[0]}`]],
        'the conversation holds the message once: the winner’s',
      );
    },
  },
];
