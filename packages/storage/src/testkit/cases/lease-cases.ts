import assert from 'node:assert/strict';
import type { ConversationStore, Lease, LeaseStore } from '@cairn/core';
import { eventually, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { UNSAFE_IDS } from './invalid-id-cases.js';

/** Long enough that a lease cannot lapse during a case, however loaded the machine. */
const LONG_TTL_MS = 30_000;
/** Short enough that waiting for a lease to lapse costs little. */
const SHORT_TTL_MS = 200;
/** How long past its expiry a lease may take to lapse in the store (its clock may run a little behind). */
const LAPSE_MARGIN_MS = 5_000;

export function leasesOf(store: ConversationStore): LeaseStore {
  assert.ok(store.leases, 'a store claiming capabilities.leases has `leases`');
  return store.leases;
}

/** Tries `owner` until it gets the lease (the holder's, expiring at `expiresAt`, lapsed), within the margin. */
export function acquireOnceLapsed(
  leases: LeaseStore,
  key: string,
  owner: string,
  expiresAt: string,
): Promise<Lease> {
  const timeoutMs = Math.max(0, Date.parse(expiresAt) - Date.now()) + LAPSE_MARGIN_MS;
  return eventually(
    () => leases.acquire(key, { owner, ttlMs: LONG_TTL_MS }),
    timeoutMs,
    `${owner} taking ${key}`,
  );
}

/** Waits until this machine's clock is past `lease`'s expiry by a little (the store's may lag). */
async function outlive(lease: Lease): Promise<void> {
  const after = Date.parse(lease.expiresAt) + 50;
  await eventually(
    async () => (Date.now() > after ? true : undefined),
    LAPSE_MARGIN_MS * 2,
    'the lease lapsing',
  );
}

export const leaseCases: ConformanceCase[] = [
  {
    name: 'a held lease is refused to other owners, and read reports its holder',
    requires: ['leases'],
    async run({ open }) {
      const store = await open();
      const leases = leasesOf(store);
      assert.equal(await leases.read('run-1'), undefined, 'a key never leased has no holder');
      const before = Date.now();
      const lease = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: LONG_TTL_MS });
      assert.ok(lease, 'a free key is taken');
      assert.deepEqual(
        [lease.key, lease.owner, lease.epoch],
        ['run-1', 'owner-a', 1],
        'the first owner is epoch 1',
      );
      const expires = Date.parse(lease.expiresAt);
      assert.ok(expires >= before + LONG_TTL_MS - LAPSE_MARGIN_MS, 'it lasts its ttl from now');
      assert.ok(expires <= Date.now() + LONG_TTL_MS + LAPSE_MARGIN_MS, 'it lasts its ttl from now');
      assert.equal(await leases.acquire('run-1', { owner: 'owner-b', ttlMs: LONG_TTL_MS }), undefined);
      const holder = { owner: 'owner-a', epoch: 1, expiresAt: lease.expiresAt };
      assert.deepEqual(await leases.read('run-1'), holder, 'read reports the holder');
      assert.equal(await leases.read('run-2'), undefined, 'other keys stay free');
      if (!store.capabilities.concurrentInstances) return;
      const other = leasesOf(await open());
      assert.deepEqual(await other.read('run-1'), holder, 'another instance sees the holder');
      assert.equal(await other.acquire('run-1', { owner: 'owner-b', ttlMs: LONG_TTL_MS }), undefined);
    },
  },
  {
    name: 'the holder acquiring again renews its lease with the same epoch',
    requires: ['leases'],
    async run({ open }) {
      const leases = leasesOf(await open());
      const first = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: 10_000 });
      assert.ok(first);
      const again = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: LONG_TTL_MS });
      assert.ok(again, 'the holder gets its lease again');
      assert.equal(again.epoch, first.epoch, 'same owner, same epoch');
      assert.ok(Date.parse(again.expiresAt) > Date.parse(first.expiresAt), 'its expiry moved on');
      assert.equal((await leases.read('run-1'))?.expiresAt, again.expiresAt);
      assert.equal(await first.renew(), true, 'the first Lease object still renews: same owner, same epoch');
    },
  },
  {
    name: 'renew keeps a lease; a lapsed lease goes to another owner with the next epoch, and the old holder’s renew is false',
    requires: ['leases'],
    async run({ open }) {
      const leases = leasesOf(await open());
      const kept = await leases.acquire('run-kept', { owner: 'owner-a', ttlMs: LONG_TTL_MS });
      assert.ok(kept);
      const expiry = kept.expiresAt;
      assert.equal(await kept.renew(), true, 'renew is true while held');
      assert.ok(Date.parse(kept.expiresAt) >= Date.parse(expiry), 'renew moves the expiry on');
      assert.equal((await leases.read('run-kept'))?.expiresAt, kept.expiresAt, 'read reports the new expiry');

      const lapsing = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: SHORT_TTL_MS });
      assert.ok(lapsing);
      const taken = await acquireOnceLapsed(leases, 'run-1', 'owner-b', lapsing.expiresAt);
      assert.equal(taken.epoch, lapsing.epoch + 1, 'a new owner is the next epoch');
      assert.equal(await lapsing.renew(), false, 'the old holder learns it lost the lease');
      await lapsing.release();
      assert.deepEqual(
        await leases.read('run-1'),
        { owner: 'owner-b', epoch: taken.epoch, expiresAt: taken.expiresAt },
        'the old holder’s release does not free the new holder’s lease',
      );
      assert.equal(await taken.renew(), true, 'the new holder renews');
    },
  },
  {
    name: 'a lapsed lease no one took is not renewed, but its owner may acquire it again with the same epoch',
    requires: ['leases'],
    async run({ open }) {
      const leases = leasesOf(await open());
      const lease = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: SHORT_TTL_MS });
      assert.ok(lease);
      await outlive(lease);
      assert.equal((await leases.read('run-1'))?.owner, 'owner-a', 'read still reports a lapsed holder');
      assert.equal(
        await lease.renew(),
        false,
        'a lapsed lease is not renewed: others may act on the key already',
      );
      const again = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: LONG_TTL_MS });
      assert.ok(again, 'its owner may acquire it again');
      assert.equal(again.epoch, lease.epoch, 'no one else held it in between: same epoch');
      assert.equal(await lease.renew(), false, 'the Lease that reported the loss stays lost');
      assert.equal(await again.renew(), true);
    },
  },
  {
    name: 'release lets another owner in at once with a higher epoch, and epochs keep rising across releases',
    requires: ['leases'],
    async run({ open }) {
      const leases = leasesOf(await open());
      const first = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: LONG_TTL_MS });
      assert.ok(first);
      await first.release();
      assert.equal(await leases.read('run-1'), undefined, 'a released key has no holder');
      assert.equal(await first.renew(), false, 'a released lease is not renewed');
      const second = await leases.acquire('run-1', { owner: 'owner-b', ttlMs: LONG_TTL_MS });
      assert.ok(second, 'another owner gets it at once');
      assert.equal(second.epoch, first.epoch + 1);
      await first.release();
      assert.equal(
        (await leases.read('run-1'))?.owner,
        'owner-b',
        'a second release of a lost lease is a no-op',
      );
      await second.release();
      const third = await leases.acquire('run-1', { owner: 'owner-a', ttlMs: LONG_TTL_MS });
      assert.ok(third);
      assert.equal(third.epoch, second.epoch + 1, 'an owner coming back after a release is a new epoch');
    },
  },
  {
    name: 'owners racing for one key: exactly one gets the lease',
    requires: ['leases'],
    async run({ open }) {
      const racers = 8;
      const shared = await open();
      // Each racer on its own instance where the store supports several.
      const stores = shared.capabilities.concurrentInstances
        ? await Promise.all(Array.from({ length: racers }, () => open()))
        : Array.from({ length: racers }, () => shared);
      const won = await Promise.all(
        stores.map((store, index) =>
          leasesOf(store).acquire('run-race', { owner: `racer-${index}`, ttlMs: LONG_TTL_MS }),
        ),
      );
      const winners = won.filter((lease) => lease !== undefined);
      assert.equal(winners.length, 1, `exactly one racer holds the lease, not ${winners.length}`);
      const [winner] = winners;
      assert.equal(winner?.epoch, 1);
      assert.equal((await leasesOf(shared).read('run-race'))?.owner, winner?.owner, 'read names the winner');
    },
  },
  {
    name: 'unsafe lease keys are INVALID_ID; bad owners and ttls are INVALID_ARGUMENT',
    requires: ['leases'],
    async run({ open }) {
      const leases = leasesOf(await open());
      for (const key of UNSAFE_IDS) {
        await rejectsWithCode(leases.acquire(key, { owner: 'owner-a', ttlMs: LONG_TTL_MS }), 'INVALID_ID');
        await rejectsWithCode(leases.read(key), 'INVALID_ID');
      }
      for (const owner of ['', 'x'.repeat(257), 'a\u0000b', 'lone \ud800']) {
        await rejectsWithCode(leases.acquire('run-1', { owner, ttlMs: LONG_TTL_MS }), 'INVALID_ARGUMENT');
      }
      for (const ttlMs of [99, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
        await rejectsWithCode(leases.acquire('run-1', { owner: 'owner-a', ttlMs }), 'INVALID_ARGUMENT');
      }
      assert.equal(await leases.read('run-1'), undefined, 'no refused call took the key');
      assert.ok(
        await leases.acquire('run-1', { owner: 'owner 1 (host, pid 42) ✓', ttlMs: 100 }),
        'any other owner',
      );
    },
  },
];
