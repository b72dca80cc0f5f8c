import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rejectsWithCode } from '@cairn/storage/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsConversationStore } from './fs-conversation-store.js';

let rootDir: string;

beforeEach(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-fs-lease-'));
});
afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const projectDir = () => join(rootDir, 'projects', 'default');
const leaseDir = (key: string) => join(projectDir(), 'leases', key);
const openStore = () => createFsConversationStore({ rootDir, durability: 'none' });
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

// A process that takes the lease and then waits, holding it, to be killed.
async function leaseInChild(key: string, ttlMs: number): Promise<{ kill(): Promise<void> }> {
  const script = `
    const { createFsConversationStore } = await import(${JSON.stringify(entry)});
    const store = createFsConversationStore({ rootDir: ${JSON.stringify(rootDir)}, durability: 'none' });
    const lease = await store.leases.acquire(${JSON.stringify(key)}, { owner: 'child', ttlMs: ${ttlMs} });
    console.log(lease ? 'leased' : 'refused');
    setInterval(() => {}, 1e9);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  expect(chunk.toString()).toBe('leased\n');
  return {
    kill: async () => {
      child.kill('SIGKILL');
      await once(child, 'close');
    },
  };
}

describe('fs leases', () => {
  it('keep a holder lock and an epoch counter under leases/<key>; a release keeps the counter', async () => {
    const store = openStore();
    const lease = await store.leases.acquire('run-1', { owner: 'owner a', ttlMs: 60_000 });
    expect(lease?.epoch).toBe(1);
    expect(readdirSync(leaseDir('run-1')).sort()).toEqual(['epoch', 'holder']);
    expect(lstatSync(join(leaseDir('run-1'), 'holder')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(leaseDir('run-1'), 'epoch'), 'utf8')).toBe('1');
    await lease?.release();
    expect(readdirSync(leaseDir('run-1'))).toEqual(['epoch']);
    expect((await store.leases.acquire('run-1', { owner: 'owner b', ttlMs: 60_000 }))?.epoch).toBe(2);
    await store.close();
  });

  it('take over at once from a holder process of this host that was killed, long before its ttl', async () => {
    const child = await leaseInChild('run-1', 600_000);
    const store = openStore();
    expect(await store.leases.acquire('run-1', { owner: 'parent', ttlMs: 60_000 })).toBeUndefined();
    await child.kill();
    const lease = await store.leases.acquire('run-1', { owner: 'parent', ttlMs: 60_000 });
    expect(lease?.epoch).toBe(2);
    expect(await lease?.renew()).toBe(true);
    await store.close();
  });

  it('renew and release get past a breaker lock left by a dead process', async () => {
    const store = openStore();
    const lease = await store.leases.acquire('run-1', { owner: 'owner', ttlMs: 60_000 });
    // pid 2^22 + 1 is above Linux's pid_max: no such process.
    symlinkSync(`${hostname()} 4194305 ${Date.now()} dead-1`, join(leaseDir('run-1'), 'holder.break'));
    expect(await lease?.renew()).toBe(true);
    await lease?.release();
    expect(await store.leases.read('run-1')).toBeUndefined();
    await store.close();
  });

  it('refuse unsafe keys before any path is made', async () => {
    const store = openStore();
    for (const key of ['../x', 'a/b', '..', '/abs']) {
      await rejectsWithCode(store.leases.acquire(key, { owner: 'owner', ttlMs: 1_000 }), 'INVALID_ID');
      await rejectsWithCode(store.leases.read(key), 'INVALID_ID');
    }
    expect(existsSync(join(projectDir(), 'leases'))).toBe(false);
    expect(existsSync(join(projectDir(), 'x'))).toBe(false);
    await store.close();
  });
});
