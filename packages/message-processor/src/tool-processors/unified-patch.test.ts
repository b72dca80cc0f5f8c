import { describe, expect, it } from 'vitest';
import { applyHunks, diffDetails, unifiedPatch } from './unified-patch.js';

describe('unifiedPatch', () => {
  it('makes a unified diff with file headers', () => {
    expect(unifiedPatch('a.txt', 'one\ntwo\n', 'one\n2\n')).toBe(
      '--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n',
    );
  });

  it('gives up on changes too big to diff cheaply', () => {
    const lines = (prefix: string) => Array.from({ length: 1_500 }, (_, i) => `${prefix} ${i}`).join('\n');
    expect(diffDetails('a.txt', lines('old'), lines('new'))).not.toHaveProperty('patch');
  });
});

describe('applyHunks', () => {
  const hunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] };

  it('applies structured hunks', () => {
    expect(applyHunks('a\n', [hunk])).toBe('b\n');
  });

  it('returns undefined for hunks that do not fit or are not hunks', () => {
    expect(applyHunks('c\n', [hunk])).toBeUndefined();
    expect(applyHunks('a\n', [])).toBeUndefined();
    expect(applyHunks('a\n', [{ ...hunk, lines: [1] }])).toBeUndefined();
    expect(applyHunks('a\n', 'not hunks')).toBeUndefined();
  });
});

describe('diffDetails of fragments', () => {
  it('does not claim the file lacks a final newline', () => {
    const details = diffDetails('/w/a.txt', 'Hello, world!', 'Hello, Cairn!', { fragment: true });
    expect(details).toMatchObject({ oldContent: 'Hello, world!', newContent: 'Hello, Cairn!' });
    expect(details.patch).toBe(
      '--- /w/a.txt\n+++ /w/a.txt\n@@ -1,1 +1,1 @@\n-Hello, world!\n+Hello, Cairn!\n',
    );
  });
});
