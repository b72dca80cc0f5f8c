// A process can die between creating its ticket and writing the host into it. Simulated here by a
// writeFileSync that creates the file and then fails: no ticket without its host may be left in the
// queue, since a waiter cannot tell such a ticket's owner dead from remote.
import * as fs from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LockQueue } from './fair-lock.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return { ...actual, writeFileSync: vi.fn(actual.writeFileSync) };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-fair-ticket-'));
});
afterEach(async () => {
  vi.mocked(fs.writeFileSync).mockReset();
  await rm(dir, { recursive: true, force: true });
});

it('a process that dies while writing its ticket leaves no ticket in the queue', async () => {
  vi.mocked(fs.writeFileSync).mockImplementationOnce((path) => {
    fs.closeSync(fs.openSync(path as string, 'w'));
    throw new Error('killed');
  });
  const queue = new LockQueue(join(dir, 'lock'));
  expect(() => queue.join()).toThrow('killed');
  expect((await readdir(dir)).filter((name) => name.startsWith('lock.wait.'))).toEqual([]);
});
