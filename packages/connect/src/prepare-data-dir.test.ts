import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cairnErrorThrownBy } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { prepareDataDir } from './prepare-data-dir.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'cairn-data-dir-'));

function refusal(run: () => unknown): { code: string; message: string; fix: unknown } {
  const error = cairnErrorThrownBy(run);
  return { code: error.code, message: error.message, fix: error.details?.fix };
}

describe('prepareDataDir', () => {
  it('creates a missing directory, parents included', () => {
    const dir = join(scratch(), 'a', 'b');
    prepareDataDir(dir, '--data-dir');
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('refuses a path that is a file, naming the setting to change', () => {
    const file = join(scratch(), 'passwd');
    writeFileSync(file, 'root:x:0:0\n');
    expect(refusal(() => prepareDataDir(file, 'CAIRN_DATA_DIR'))).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: `the data directory ${file} is a file, not a directory`,
      fix: 'choose a directory you can write to with CAIRN_DATA_DIR',
    });
  });

  it('refuses a path under a file, naming the file in the way', () => {
    const file = join(scratch(), 'notes.txt');
    writeFileSync(file, '');
    expect(refusal(() => prepareDataDir(join(file, 'cairn', 'data'), '--data-dir')).message).toBe(
      `the data directory ${join(file, 'cairn', 'data')} cannot be created: ${file} is a file`,
    );
  });
});

describe('openStore on a data directory that cannot hold it', () => {
  it.each(['fs', 'sqlite'] as const)('%s: STORE_UNAVAILABLE before any store code runs', async (store) => {
    const file = join(scratch(), 'file');
    writeFileSync(file, 'keep me');
    await expect(openStore({ store, dataDir: file })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: `the data directory ${file} is a file, not a directory`,
    });
  });
});
