import type { DiffDetails } from '@cairn/core';
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk, structuredPatch } from 'diff';

// Bounds the diff's cost (about quadratic in changed lines: ~150 ms at this bound); a bigger change
// gets no patch. A bound on work, unlike a timeout, gives the same answer every time: the live
// display and a replayed log must agree.
const MAX_EDIT_LENGTH = 1_000;
// Lines of unchanged text shown around each change (jsdiff's default).
const CONTEXT = 4;
// Text compared a chunk at a time first: one native comparison instead of one per character.
const CHUNK = 256;

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let length = 0;
  while (length + CHUNK <= limit && a.slice(length, length + CHUNK) === b.slice(length, length + CHUNK))
    length += CHUNK;
  while (length < limit && a.charCodeAt(length) === b.charCodeAt(length)) length++;
  return length;
}

/** The length of the common suffix of `a` and `b`, at most `limit`. */
function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (
    length + CHUNK <= limit &&
    a.slice(a.length - length - CHUNK, a.length - length) ===
      b.slice(b.length - length - CHUNK, b.length - length)
  )
    length += CHUNK;
  while (length < limit && a.charCodeAt(a.length - length - 1) === b.charCodeAt(b.length - length - 1))
    length++;
  return length;
}

/** Where the line `lines` lines above the one holding `index` starts (0 at most). */
function lineStartAbove(text: string, index: number, lines: number): number {
  let start = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
  for (let line = 0; line < lines && start > 0; line++)
    start = start === 1 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
  return start;
}

/** Where the line `lines` lines below the one starting at `start` starts (the text's length at most). */
function lineStartBelow(text: string, start: number, lines: number): number {
  let end = start;
  for (let line = 0; line < lines && end < text.length; line++) {
    const lineBreak = text.indexOf('\n', end);
    end = lineBreak === -1 ? text.length : lineBreak + 1;
  }
  return end;
}

function lineBreaksBefore(text: string, index: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function trailingContextLines(hunks: readonly StructuredPatchHunk[]): number {
  const lines = hunks.at(-1)?.lines ?? [];
  let count = 0;
  while (count < lines.length && lines[lines.length - 1 - count]?.startsWith(' ')) count++;
  return count;
}

/**
 * jsdiff's hunks for the whole files, made by diffing only the lines around the change: unchanged
 * text is compared once as text, not split into lines and diffed. The lines before the first
 * difference are the same in both files, and the diff goes straight through them: leaving out all
 * but the context above changes nothing but the line numbers. Below the last difference, repeated
 * lines can make the diff place a change later than where the texts start to agree, so the window
 * takes CONTEXT more lines there, and more again while the last hunk ends without its full
 * context. The result is checked against jsdiff's diff of the whole files by a property test.
 */
function changeHunks(oldContent: string, newContent: string): StructuredPatchHunk[] | undefined {
  const prefix = commonPrefixLength(oldContent, newContent);
  const start = lineStartAbove(oldContent, prefix, CONTEXT);
  const skippedLines = lineBreaksBefore(oldContent, start);
  const suffix = commonSuffixLength(
    oldContent,
    newContent,
    Math.min(oldContent.length, newContent.length) - prefix,
  );
  // After a line break inside the common suffix, both files go on with the same lines.
  const sharedBreak = oldContent.indexOf('\n', oldContent.length - suffix);
  const sharedFrom = sharedBreak === -1 ? oldContent.length : sharedBreak + 1;
  for (let margin = CONTEXT; ; margin *= 4) {
    const end = lineStartBelow(oldContent, sharedFrom, margin);
    const tail = oldContent.length - end;
    const patch = structuredPatch(
      '',
      '',
      oldContent.slice(start, end),
      newContent.slice(start, newContent.length - tail),
      undefined,
      undefined,
      { maxEditLength: MAX_EDIT_LENGTH, context: CONTEXT },
    );
    if (patch === undefined) return undefined;
    if (tail === 0 || patch.hunks.length === 0 || trailingContextLines(patch.hunks) >= CONTEXT) {
      for (const hunk of patch.hunks) {
        hunk.oldStart += skippedLines;
        hunk.newStart += skippedLines;
      }
      return patch.hunks;
    }
  }
}

/** The names a patch's `---` and `+++` lines give the file (the same file, before and after). */
export interface PatchFileNames {
  old: string;
  new: string;
}

const namesOf = (names: string | PatchFileNames): PatchFileNames =>
  typeof names === 'string' ? { old: names, new: names } : names;

// A path starting at a root: `/x`, `\\x`, `C:\x`, `C:/x`.
const ABSOLUTE_PATH = /^(?:[\\/]|[A-Za-z]:[\\/])/;

/**
 * The names a patch gives a file shown as `shownPath`: a relative path (a file in the cwd) with
 * git's `a/` and `b/` before it, so the headers name the file as the summary does; any other path
 * as it is.
 */
function patchFileNames(shownPath: string): PatchFileNames {
  return ABSOLUTE_PATH.test(shownPath)
    ? namesOf(shownPath)
    : { old: `a/${shownPath}`, new: `b/${shownPath}` };
}

// File names jsdiff writes C-quoted: with control, non-ASCII, `"` or `\\` characters. (A loop: a
// regex costs more on a short path.)
function needsQuoting(filePath: string): boolean {
  for (let index = 0; index < filePath.length; index++) {
    const code = filePath.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return true;
  }
  return false;
}

/**
 * jsdiff's `formatPatch` with file headers only, written directly: the same text, without the
 * array of every line it joins. A file name that needs quoting is left to jsdiff.
 */
export function formatHunks(
  fileNames: string | PatchFileNames,
  hunks: readonly StructuredPatchHunk[],
): string {
  const names = namesOf(fileNames);
  if (needsQuoting(names.old) || needsQuoting(names.new)) {
    return formatPatch(
      {
        oldFileName: names.old,
        newFileName: names.new,
        oldHeader: undefined,
        newHeader: undefined,
        hunks: hunks as StructuredPatchHunk[],
      },
      FILE_HEADERS_ONLY,
    );
  }
  let text = `--- ${names.old}\n+++ ${names.new}\n`;
  for (const hunk of hunks) {
    // Unified diff quirk (as jsdiff writes it): an empty range starts one line lower.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    text += `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@\n`;
    if (hunk.lines.length > 0) text += `${hunk.lines.join('\n')}\n`;
  }
  return text;
}

const NO_HUNKS: readonly StructuredPatchHunk[] = [];

/** The patch creating a file of `content` (not empty), as jsdiff writes it, without diffing. */
function creationPatch(fileNames: string | PatchFileNames, content: string): string | undefined {
  const endsWithBreak = content.endsWith('\n');
  const body = endsWithBreak ? content.slice(0, -1) : content;
  // Split and joined rather than `replaceAll`, which builds its result one concatenation per line
  // (a tree of string pieces for the collector to walk); `join` writes one flat string, about 3×
  // faster here. Each line is one edit: jsdiff gives up past the same bound, so past it the split stops.
  const bodyLines = body.split('\n', MAX_EDIT_LENGTH + 1);
  const lines = bodyLines.length;
  if (lines > MAX_EDIT_LENGTH) return undefined;
  const added = bodyLines.join('\n+');
  const noNewline = endsWithBreak ? '' : '\\ No newline at end of file\n';
  return `${formatHunks(fileNames, NO_HUNKS)}@@ -0,0 +1,${lines} @@\n+${added}\n${noNewline}`;
}

/**
 * A unified diff of one file's change (jsdiff's, with 4 lines of context), or undefined when the
 * change is too big to diff cheaply.
 */
export function unifiedPatch(
  fileNames: string | PatchFileNames,
  oldContent: string,
  newContent: string,
): string | undefined {
  if (oldContent === '' && newContent !== '') return creationPatch(fileNames, newContent);
  const hunks = changeHunks(oldContent, newContent);
  return hunks === undefined ? undefined : formatHunks(fileNames, hunks);
}

// A fragment's last line is not the file's last line: without this, the patch would claim
// "No newline at end of file" about a file it never saw the end of.
const asWholeLines = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

function isHunk(value: unknown): value is StructuredPatchHunk {
  if (typeof value !== 'object' || value === null) return false;
  const hunk = value as Record<string, unknown>;
  if (
    !Number.isSafeInteger(hunk.oldStart) ||
    !Number.isSafeInteger(hunk.oldLines) ||
    !Number.isSafeInteger(hunk.newStart) ||
    !Number.isSafeInteger(hunk.newLines)
  )
    return false;
  const lines = hunk.lines;
  if (!Array.isArray(lines)) return false;
  for (let index = 0; index < lines.length; index++) if (typeof lines[index] !== 'string') return false;
  return true;
}

function areHunks(value: unknown): value is StructuredPatchHunk[] {
  return Array.isArray(value) && value.length > 0 && value.every(isHunk);
}

const SPACE = 0x20;
const MINUS = 0x2d;
const PLUS = 0x2b;
const BACKSLASH = 0x5c;

/** Hunks whose lines are all context, removals, additions or "\ No newline" notes, as many as they say. */
function areWellFormedHunks(value: unknown): value is StructuredPatchHunk[] {
  if (!areHunks(value)) return false;
  return value.every((hunk) => {
    let oldLines = 0;
    let newLines = 0;
    for (const line of hunk.lines) {
      const kind = line.charCodeAt(0);
      if (kind === SPACE) {
        oldLines++;
        newLines++;
      } else if (kind === MINUS) oldLines++;
      else if (kind === PLUS) newLines++;
      else if (kind !== BACKSLASH) return false;
    }
    return (
      oldLines === hunk.oldLines && newLines === hunk.newLines && hunk.oldStart >= 0 && hunk.newStart >= 0
    );
  });
}

export interface DiffDetailsOptions {
  /** The contents are replaced snippets, not the whole file. */
  fragment?: boolean;
  /**
   * The tool's own hunks of the change (Claude Code's `structuredPatch`): when they are well-formed
   * hunks, the patch is made of them instead of diffing the contents.
   */
  hunks?: unknown;
  /** The path the summary shows (relative to the cwd): the patch's headers name the file so too. */
  shownPath?: string;
}

/** Diff details of a file's change, with its unified patch when there is one. */
export function diffDetails(
  filePath: string,
  oldContent: string,
  newContent: string,
  options: DiffDetailsOptions = {},
): DiffDetails {
  const names = options.shownPath === undefined ? filePath : patchFileNames(options.shownPath);
  const patch = areWellFormedHunks(options.hunks)
    ? formatHunks(names, options.hunks)
    : options.fragment
      ? unifiedPatch(names, asWholeLines(oldContent), asWholeLines(newContent))
      : unifiedPatch(names, oldContent, newContent);
  const details: DiffDetails = { type: 'diff', filePath, oldContent, newContent };
  if (patch !== undefined) details.patch = patch;
  return details;
}

/**
 * `source` with `hunks` applied (jsdiff's structured hunks, as in Claude Code's `structuredPatch`),
 * or undefined when they are not hunks or do not fit.
 */
export function applyHunks(source: string, hunks: unknown): string | undefined {
  if (!areHunks(hunks)) return undefined;
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
