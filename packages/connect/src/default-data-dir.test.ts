import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from './default-data-dir.js';

describe('defaultDataDir', () => {
  it('follows XDG_DATA_HOME, else HOME, else the user’s home directory', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'cairn'));
    expect(defaultDataDir({ XDG_DATA_HOME: '', HOME: '/h' })).toBe(join('/h', '.local', 'share', 'cairn'));
    expect(defaultDataDir({})).toBe(join(homedir(), '.local', 'share', 'cairn'));
  });
});
