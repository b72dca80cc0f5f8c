import type { FileListDetails } from '@cairn/core';
import { countField, fieldOf, stringsField } from './json-fields.js';
import { countOf } from './summary-text.js';
import type { ToolCallView } from './tool-call-view.js';

/** Paths a tool found or listed, and how many there were in all (some may have been cut off). */
export interface FileListing {
  files: string[];
  total: number;
  /** There were more than `total`, how many more is not known (Claude Code's `truncated`). */
  truncated?: boolean;
}

// "Found 12 files" (Claude Code's Grep), 'Found 3 file(s) matching "*.ts" …' (Gemini CLI's glob).
const FOUND_HEADER = /^Found (\d{1,9}) (?:files?|file\(s\))\b/i;
const SKIPPED_LINES = [
  /^No files found\b/i,
  /^Directory listing for .*:$/i,
  /^Directory .* is empty\.?$/i,
  /^\(Results are truncated\b/i,
  /^\[\d+ files? truncated\]/i,
  /^-{3,}$/,
];
const DIRECTORY_ENTRY = /^\[DIR\]\s+(.+)$/;
const SIZE_SUFFIX = /\s+\(\d+ bytes\)$/;
const TREE_LINE = /^(\s*)- (.+)$/;
const ABSOLUTE_DIRECTORY = /^(?:\/|[A-Za-z]:[\\/]).*[\\/]$/;

/** Joins tree names: a directory's name already ends with a slash. */
function joinPath(parent: string, name: string): string {
  return parent === '' || parent.endsWith('/') ? parent + name : `${parent}/${name}`;
}

/**
 * Claude Code's LS tree: "- /root/" then indented "- name" lines (directories end with a slash).
 * An absolute top-level directory is the listed one: its entries are given relative to it.
 */
function parseTree(lines: readonly string[]): string[] {
  const files: string[] = [];
  const stack: { indent: number; path: string }[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const match = TREE_LINE.exec(line);
    // The tree ends where prose starts (LS appends a note).
    if (match === null) break;
    const indent = match[1]?.length ?? 0;
    const name = match[2]?.trim() ?? '';
    while ((stack.at(-1)?.indent ?? -1) >= indent) stack.pop();
    const parent = stack.at(-1);
    if (parent === undefined && ABSOLUTE_DIRECTORY.test(name)) {
      stack.push({ indent, path: '' });
      continue;
    }
    const path = joinPath(parent?.path ?? '', name);
    stack.push({ indent, path });
    files.push(path);
  }
  return files;
}

/** The paths in a tool's text output: one per line, headers and notes skipped. */
export function parseFileList(text: string): FileListing {
  const lines = text.split(/\r?\n/);
  const firstLine = lines.find((line) => line.trim() !== '');
  if (firstLine !== undefined && TREE_LINE.test(firstLine)) {
    const files = parseTree(lines);
    return { files, total: files.length };
  }
  const files: string[] = [];
  let header: number | undefined;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || SKIPPED_LINES.some((pattern) => pattern.test(line))) continue;
    const found = FOUND_HEADER.exec(line);
    if (found !== null) {
      header = Number(found[1]);
      continue;
    }
    const directory = DIRECTORY_ENTRY.exec(line)?.[1];
    files.push(directory === undefined ? line.replace(SIZE_SUFFIX, '') : `${directory}/`);
  }
  return { files, total: Math.max(header ?? 0, files.length) };
}

/** The files of a call: the structured result's `filenames` (Claude Code) or its parsed output. */
export function fileListingOf(call: ToolCallView): FileListing {
  const filenames = stringsField(call.structured, 'filenames');
  if (filenames !== undefined) {
    const total = Math.max(countField(call.structured, 'numFiles') ?? 0, filenames.length);
    return fieldOf(call.structured, 'truncated') === true
      ? { files: filenames, total, truncated: true }
      : { files: filenames, total };
  }
  return parseFileList(call.output);
}

/** "Found 12 files", "Found 100+ files" when some were cut off uncounted. */
export function foundFilesSummary({ total, truncated }: FileListing): string {
  return truncated ? `Found ${total}+ files` : `Found ${countOf(total, 'file')}`;
}

export function fileListDetails(files: string[]): FileListDetails {
  return { type: 'fileList', files };
}
