import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

describe.each([
  ['sqlite', () => ({})],
  ['postgres', () => ({ DATABASE_URL: inject('databaseUrl') })],
])('--store %s', (store, extraEnv) => {
  it('stores a turn there and lists, shows and continues it from another process', async () => {
    const server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: `Stored in ${store}.` }, { text: 'Still here.' }],
    });
    try {
      const dir = tempDir(store);
      const env = mockEnv(dir, server.baseURL, { CAIRN_STORE: store, ...extraEnv() });
      const first = await runCairn(['-p', 'Where are you stored?'], { env });
      expect(first.code, first.stderr).toBe(0);
      const id = /conversation (\S+)/.exec(first.stderr)?.[1] as string;
      expect((await runCairn(['conversations', 'list'], { env })).stdout).toContain(id);
      const next = await runCairn(['-p', 'And now?', '--resume', id], { env });
      expect(next.stdout).toContain('Still here.');
      const shown = await runCairn(['conversations', 'show', id], { env });
      expect(shown.stdout).toContain(`Stored in ${store}.`);
      expect(shown.stdout).toContain('Still here.');
      expect(existsSync(join(dir, 'store'))).toBe(false);
      if (store === 'sqlite') expect(existsSync(join(dir, 'conversations.db'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

it('--store postgres without a database says how to give one', async () => {
  const run = await runCairn(['conversations', 'list', '--store', 'postgres'], {
    env: cliEnv(tempDir('nodb')),
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('DATABASE_URL');
});
