import { describe, expect, it } from 'vitest';
import { renderPatch } from './render-patch.js';
import { ansiColors, plainColors } from './test-support.js';

const patch = '--- src/a.ts\n+++ src/a.ts\n@@ -1,2 +1,2 @@\n-let x = 1;\n+const x = 1;\n export { x };\n';

describe('renderPatch', () => {
  it('keeps the text without colour, each line indented and ended', () => {
    expect(renderPatch(patch, plainColors, { indent: '  ' })).toBe(
      '  --- src/a.ts\n  +++ src/a.ts\n  @@ -1,2 +1,2 @@\n  -let x = 1;\n  +const x = 1;\n   export { x };\n',
    );
    expect(renderPatch('', plainColors)).toBe('');
  });

  it('colours additions green, removals red, hunk headers cyan and file headers bold', () => {
    const lines = renderPatch(patch, ansiColors).split('\n');
    expect(lines[0]).toBe(ansiColors.bold('--- src/a.ts'));
    expect(lines[2]).toBe(ansiColors.cyan('@@ -1,2 +1,2 @@'));
    expect(lines[3]).toBe(ansiColors.red('-let x = 1;'));
    expect(lines[4]).toBe(ansiColors.green('+const x = 1;'));
    expect(lines[5]).toBe(' export { x };');
  });

  it('reads a removed line that looks like a file header as a removal, by the hunk line counts', () => {
    const tricky = '@@ -1,2 +1,1 @@\n--- a comment\n keep\n';
    expect(renderPatch(tricky, ansiColors).split('\n')[1]).toBe(ansiColors.red('--- a comment'));
  });

  it('shows at most maxLines lines (40 by default), then counts the rest', () => {
    const long = ['@@ -1,50 +1,50 @@', ...Array.from({ length: 50 }, (_, index) => ` line ${index}`)].join(
      '\n',
    );
    const shown = renderPatch(long, plainColors).split('\n');
    expect(shown).toHaveLength(42);
    expect(shown[40]).toBe('… 11 more lines');
    expect(renderPatch(long, plainColors, { maxLines: 2, indent: '> ' })).toBe(
      '> @@ -1,50 +1,50 @@\n>  line 0\n> … 49 more lines\n',
    );
  });
});
