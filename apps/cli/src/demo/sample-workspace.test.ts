import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSampleWorkspace,
  SAMPLE_BUGGY_LINE,
  SAMPLE_MARKER_FILE,
  SAMPLE_SOURCE_PATH,
} from './sample-workspace.js';

describe('createSampleWorkspace', () => {
  let parent: string;
  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'cairn-sample-'));
  });
  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('writes the sample project, with the buggy line the tour fixes exactly once', async () => {
    const dir = join(parent, 'new', 'sample');
    await createSampleWorkspace(dir);
    expect((await readdir(dir)).sort()).toEqual([
      SAMPLE_MARKER_FILE,
      'README.md',
      'package.json',
      'src',
      'test',
    ]);
    const source = await readFile(join(dir, SAMPLE_SOURCE_PATH), 'utf8');
    expect(source.split(SAMPLE_BUGGY_LINE)).toHaveLength(2);
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
  });

  it('resets an earlier sample, and fills an empty directory', async () => {
    await createSampleWorkspace(parent);
    await writeFile(join(parent, SAMPLE_SOURCE_PATH), 'changed');
    await mkdir(join(parent, 'extra'));
    await createSampleWorkspace(parent);
    expect(await readFile(join(parent, SAMPLE_SOURCE_PATH), 'utf8')).toContain(SAMPLE_BUGGY_LINE);
    expect(await readdir(parent)).not.toContain('extra');
  });

  it('refuses a directory holding anything else, and a file', async () => {
    await writeFile(join(parent, 'notes.txt'), 'mine');
    await expect(createSampleWorkspace(parent)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `${parent} is not empty, and not an earlier demo sample`,
    });
    expect(await readdir(parent)).toEqual(['notes.txt']);
    await expect(createSampleWorkspace(join(parent, 'notes.txt'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
