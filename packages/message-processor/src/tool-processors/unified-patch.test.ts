import { createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHunks, diffDetails, formatHunks, unifiedPatch } from './unified-patch.js';

/** jsdiff's patch of the whole files, which `unifiedPatch` must equal. */
const wholeFilePatch = (oldContent: string, newContent: string) =>
  createTwoFilesPatch('a.txt', 'a.txt', oldContent, newContent, undefined, undefined, {
    maxEditLength: 1_000,
    headerOptions: FILE_HEADERS_ONLY,
  });

// Few distinct lines, so files repeat lines and a change can be aligned more than one way.
const lineArb = fc.constantFrom('a', 'b', '}', '', '  x', 'é', '日本', 'c\r');
const textArb = fc
  .tuple(fc.array(lineArb, { maxLength: 40 }), fc.boolean())
  .map(([lines, finalBreak]) => lines.join('\n') + (finalBreak && lines.length > 0 ? '\n' : ''));
const editArb = fc.record({
  at: fc.nat(),
  removed: fc.nat({ max: 3 }),
  added: fc.array(fc.oneof(lineArb, fc.constant('new')), { maxLength: 3 }),
});
/** `text` with a few lines removed and added here and there, its final line break toggled at times. */
const editedArb = fc
  .tuple(textArb, fc.array(editArb, { maxLength: 4 }), fc.boolean())
  .map(([text, edits, toggleBreak]) => {
    const lines = text.split('\n');
    for (const { at, removed, added } of edits) lines.splice(at % (lines.length + 1), removed, ...added);
    const edited = lines.join('\n');
    const flipped = edited.endsWith('\n') ? edited.slice(0, -1) : `${edited}\n`;
    return [text, toggleBreak ? flipped : edited] as const;
  });

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

  it("equals jsdiff's patch of the whole files", () => {
    fc.assert(
      fc.property(editedArb, ([oldContent, newContent]) => {
        expect(unifiedPatch('a.txt', oldContent, newContent)).toBe(wholeFilePatch(oldContent, newContent));
      }),
      { numRuns: 2_000 },
    );
  });

  it("equals jsdiff's patch of a change deep inside a long file", () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => `line ${i % 7 === 0 ? 'same' : i}`);
    const edited = [...lines.slice(0, 1_500), 'inserted', ...lines.slice(1_502)];
    edited[2_000] = 'changed';
    const [oldContent, newContent] = [lines.join('\n'), edited.join('\n')];
    expect(unifiedPatch('a.txt', oldContent, newContent)).toBe(wholeFilePatch(oldContent, newContent));
  });

  it("writes a new file's patch as jsdiff does, without diffing", () => {
    fc.assert(
      fc.property(fc.oneof(textArb, fc.string()), (content) => {
        expect(unifiedPatch('a.txt', '', content)).toBe(wholeFilePatch('', content));
      }),
      { numRuns: 1_000 },
    );
    const file = (lines: number) => 'x\n'.repeat(lines);
    expect(unifiedPatch('a.txt', '', file(1_000))).toBe(wholeFilePatch('', file(1_000)));
    expect(unifiedPatch('a.txt', '', file(1_001))).toBeUndefined();
    expect(unifiedPatch('a b"é.txt', '', 'x')).toBe(
      createTwoFilesPatch('a b"é.txt', 'a b"é.txt', '', 'x', undefined, undefined, {
        headerOptions: FILE_HEADERS_ONLY,
      }),
    );
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

describe('diffDetails', () => {
  it('does not claim a fragment lacks a final newline', () => {
    const details = diffDetails('/w/a.txt', 'Hello, world!', 'Hello, Cairn!', { fragment: true });
    expect(details).toMatchObject({ oldContent: 'Hello, world!', newContent: 'Hello, Cairn!' });
    expect(details.patch).toBe(
      '--- /w/a.txt\n+++ /w/a.txt\n@@ -1,1 +1,1 @@\n-Hello, world!\n+Hello, Cairn!\n',
    );
  });

  it('names the file in the headers as it is shown: a relative path as git does, another as it is', () => {
    const body = '@@ -1,1 +1,1 @@\n-a\n+b\n';
    expect(diffDetails('/w/src/a.ts', 'a\n', 'b\n', { shownPath: 'src/a.ts' })).toMatchObject({
      filePath: '/w/src/a.ts',
      patch: `--- a/src/a.ts\n+++ b/src/a.ts\n${body}`,
    });
    for (const shownPath of ['/etc/hosts', 'D:/y.ts'])
      expect(diffDetails(shownPath, 'a\n', 'b\n', { shownPath }).patch).toBe(
        `--- ${shownPath}\n+++ ${shownPath}\n${body}`,
      );
    expect(diffDetails('/w/n.txt', '', 'x\n', { shownPath: 'n.txt' }).patch).toBe(
      '--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+x\n',
    );
  });

  it("formats the tool's hunks when they are well-formed, else diffs", () => {
    const hunk = { oldStart: 2, oldLines: 2, newStart: 2, newLines: 2, lines: [' b', '-c', '+C'] };
    expect(diffDetails('a.txt', 'a\nb\nc\n', 'a\nb\nC\n', { hunks: [hunk] }).patch).toBe(
      '--- a.txt\n+++ a.txt\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n',
    );
    const diffed = '--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n';
    for (const hunks of [[], [{ ...hunk, oldLines: 3 }], [{ ...hunk, lines: [' b', '?c', '+C'] }], 'x'])
      expect(diffDetails('a.txt', 'a\nb\nc\n', 'a\nb\nC\n', { hunks }).patch).toBe(diffed);
  });
});

describe('formatHunks', () => {
  const jsdiffFormat = (filePath: string, hunks: ReturnType<typeof structuredPatch>['hunks']) =>
    formatPatch(
      { oldFileName: filePath, newFileName: filePath, oldHeader: undefined, newHeader: undefined, hunks },
      FILE_HEADERS_ONLY,
    );
  const fileNameArb = fc.oneof(
    fc.constantFrom('a.txt', 'src/a b.ts', '/home/dev/résumé.md', 'C:\\x\\y.ts', 'q"uote', 'tab\tname', ''),
    fc.string(),
  );

  it("equals jsdiff's formatPatch with file headers only", () => {
    fc.assert(
      fc.property(fileNameArb, editedArb, fc.nat({ max: 6 }), (filePath, [oldText, newText], context) => {
        const { hunks } = structuredPatch('', '', oldText, newText, undefined, undefined, { context });
        expect(formatHunks(filePath, hunks)).toBe(jsdiffFormat(filePath, hunks));
      }),
      { numRuns: 500 },
    );
  });

  it('equals it on hunks of any numbers and lines, empty ones included', () => {
    const hunkArb = fc.record({
      oldStart: fc.nat(),
      oldLines: fc.nat({ max: 3 }),
      newStart: fc.nat(),
      newLines: fc.nat({ max: 3 }),
      lines: fc.array(fc.string(), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fileNameArb, fc.array(hunkArb, { maxLength: 3 }), (filePath, hunks) => {
        expect(formatHunks(filePath, hunks)).toBe(jsdiffFormat(filePath, hunks));
      }),
      { numRuns: 100 },
    );
  });
});
