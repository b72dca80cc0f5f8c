import { readFile } from 'node:fs/promises';
import { looksBinary } from './binary-content.js';
import type { WorkspacePath } from './workspace.js';
import { regularFileStats } from './workspace-files.js';

// A matching line longer than this is cut: a minified file would otherwise fill the output.
const MAX_SHOWN_LINE_LENGTH = 500;

export interface ContentSearch {
  regex: RegExp;
  maxMatches: number;
  /** Larger files are skipped (and counted). */
  maxFileBytes: number;
  signal: AbortSignal;
}

export interface ContentMatches {
  /** `path:line: text`, in file order. */
  lines: string[];
  filesMatched: number;
  skippedLargeFiles: number;
  /** There were more matches than `maxMatches`. */
  more: boolean;
}

const shownLine = (line: string) =>
  line.length > MAX_SHOWN_LINE_LENGTH ? `${line.slice(0, MAX_SHOWN_LINE_LENGTH)}…` : line;

/** The lines of `files` that match, skipping binary files, large files and anything not a regular file. */
export async function searchFileContents(
  files: readonly WorkspacePath[],
  search: ContentSearch,
): Promise<ContentMatches> {
  const { regex, maxMatches, maxFileBytes, signal } = search;
  const result: ContentMatches = { lines: [], filesMatched: 0, skippedLargeFiles: 0, more: false };
  for (const file of files) {
    signal.throwIfAborted();
    const stats = await regularFileStats(file.absolute);
    if (stats === undefined) continue;
    if (stats.size > maxFileBytes) {
      result.skippedLargeFiles++;
      continue;
    }
    const bytes = await readFile(file.absolute).catch(() => undefined);
    if (bytes === undefined || looksBinary(bytes)) continue;
    const lines = bytes.toString('utf8').split(/\r?\n/);
    let matchedHere = false;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index] as string;
      if (!regex.test(line)) continue;
      if (result.lines.length === maxMatches) {
        result.more = true;
        return result;
      }
      if (!matchedHere) result.filesMatched++;
      matchedHere = true;
      result.lines.push(`${file.relative}:${index + 1}: ${shownLine(line)}`);
    }
  }
  return result;
}
