import type { DiffDetails } from '@cairn/core';
import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY, type StructuredPatchHunk } from 'diff';

// Bounds the diff's cost (about quadratic in changed lines: ~150 ms at this bound); a bigger change
// gets no patch. A bound on work, unlike a timeout, gives the same answer every time: the live
// display and a replayed log must agree.
const MAX_EDIT_LENGTH = 1_000;

/** A unified diff of one file's change, or undefined when the change is too big to diff cheaply. */
export function unifiedPatch(filePath: string, oldContent: string, newContent: string): string | undefined {
  return createTwoFilesPatch(filePath, filePath, oldContent, newContent, undefined, undefined, {
    maxEditLength: MAX_EDIT_LENGTH,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

// A fragment's last line is not the file's last line: without this, the patch would claim
// "No newline at end of file" about a file it never saw the end of.
const asWholeLines = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

/**
 * Diff details of a file's change, with its unified patch when there is one. `fragment`: the
 * contents are replaced snippets, not the whole file.
 */
export function diffDetails(
  filePath: string,
  oldContent: string,
  newContent: string,
  options: { fragment?: boolean } = {},
): DiffDetails {
  const patch = options.fragment
    ? unifiedPatch(filePath, asWholeLines(oldContent), asWholeLines(newContent))
    : unifiedPatch(filePath, oldContent, newContent);
  const details: DiffDetails = { type: 'diff', filePath, oldContent, newContent };
  if (patch !== undefined) details.patch = patch;
  return details;
}

function isHunk(value: unknown): value is StructuredPatchHunk {
  if (typeof value !== 'object' || value === null) return false;
  const hunk = value as Record<string, unknown>;
  return (
    ['oldStart', 'oldLines', 'newStart', 'newLines'].every((key) => Number.isSafeInteger(hunk[key])) &&
    Array.isArray(hunk.lines) &&
    hunk.lines.every((line) => typeof line === 'string')
  );
}

/**
 * `source` with `hunks` applied (jsdiff's structured hunks, as in Claude Code's `structuredPatch`),
 * or undefined when they are not hunks or do not fit.
 */
export function applyHunks(source: string, hunks: unknown): string | undefined {
  if (!Array.isArray(hunks) || hunks.length === 0 || !hunks.every(isHunk)) return undefined;
  try {
    const patched = applyPatch(source, {
      oldFileName: undefined,
      newFileName: undefined,
      oldHeader: undefined,
      newHeader: undefined,
      hunks,
    });
    return patched === false ? undefined : patched;
  } catch {
    // jsdiff throws on a hunk line it cannot read; a patch we cannot apply is just not used.
    return undefined;
  }
}
