import type { JsonValue } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { fileListingOf, foundFilesSummary, parseFileList } from './file-list.js';
import { toolCall } from './test-support.js';

describe('parseFileList', () => {
  it('reads one path a line, skipping headers and notes', () => {
    expect(parseFileList('Found 2 files\n/w/a.ts\n/w/b.ts\n')).toEqual({
      files: ['/w/a.ts', '/w/b.ts'],
      total: 2,
    });
    expect(
      parseFileList('/w/a.ts\n(Results are truncated. Consider using a more specific path or pattern.)'),
    ).toEqual({ files: ['/w/a.ts'], total: 1 });
    expect(parseFileList('No files found')).toEqual({ files: [], total: 0 });
    expect(parseFileList('')).toEqual({ files: [], total: 0 });
  });

  it('reads Gemini CLI directory listings', () => {
    expect(parseFileList('Directory listing for /w:\n[DIR] src\nREADME.md (12 bytes)')).toEqual({
      files: ['src/', 'README.md'],
      total: 2,
    });
  });

  it('reads a Claude Code LS tree, relative to its root', () => {
    expect(parseFileList('- /w/\n  - a/\n    - b/\n      - c.ts\n  - d.ts\n')).toEqual({
      files: ['a/', 'a/b/', 'a/b/c.ts', 'd.ts'],
      total: 4,
    });
  });

  it('reads a tree without a root as entries', () => {
    expect(parseFileList('- src/\n  - a.ts\n- b.ts')).toEqual({
      files: ['src/', 'src/a.ts', 'b.ts'],
      total: 3,
    });
  });
});

describe('fileListingOf', () => {
  it('prefers structured filenames and their count, and says when some were cut off', () => {
    const call = (structured: JsonValue) => toolCall('Glob', {}, { output: 'ignored', structured });
    expect(fileListingOf(call({ filenames: ['a', 'b'], numFiles: 150, truncated: true }))).toEqual({
      files: ['a', 'b'],
      total: 150,
      truncated: true,
    });
    expect(fileListingOf(call({ filenames: ['a', 'b'], numFiles: 1, truncated: false }))).toEqual({
      files: ['a', 'b'],
      total: 2,
    });
  });
});

describe('foundFilesSummary', () => {
  it('counts the files, with a plus when some were cut off uncounted', () => {
    expect(foundFilesSummary({ files: [], total: 1 })).toBe('Found 1 file');
    expect(foundFilesSummary({ files: [], total: 100, truncated: true })).toBe('Found 100+ files');
  });
});
