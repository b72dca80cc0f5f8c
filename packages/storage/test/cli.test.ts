// The kit's CLI against a real store, in a child process: the memory store passes; a store that
// loses offloaded outputs fails, and the exit code says so.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../bin/cairn-store-conformance.js', import.meta.url));
const storage = new URL('../dist/index.js', import.meta.url).href;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-kit-cli-'));
  await writeFile(
    join(dir, 'memory.mjs'),
    `import { createMemoryConversationStore } from '${storage}';
export const createLocation = async () => null;
export const openStore = async () => createMemoryConversationStore();`,
  );
  await writeFile(
    join(dir, 'no-offload.mjs'),
    `import { createMemoryConversationStore } from '${storage}';
export const createLocation = async () => null;
export const openStore = async () => {
  const store = createMemoryConversationStore();
  // A broken backend: it loses offloaded outputs (every blob reads back empty).
  store.getBlob = async () => new Uint8Array(0);
  return store;
};`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('cairn-store-conformance', () => {
  it('passes a conforming store', async () => {
    const { stdout } = await run(process.execPath, [cli, join(dir, 'memory.mjs'), '--only', 'blobs']);
    expect(stdout).toMatch(/^4 passed, 0 failed, 0 skipped$/m);
  });

  it('fails a store that breaks the contract, with a non-zero exit code', async () => {
    const failure = await run(process.execPath, [
      cli,
      join(dir, 'no-offload.mjs'),
      '--only',
      'is offloaded',
      '--json',
    ]).catch((error: { code: number; stdout: string }) => error);
    expect('code' in failure && failure.code).toBe(1);
    expect(failure.stdout).toMatch(/"status":"failed"/);
    expect(failure.stdout).toMatch(/0 passed, 1 failed, 0 skipped/);
  });
});
