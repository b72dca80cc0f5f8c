import { readFile } from 'node:fs/promises';
import { looksBinary } from './binary-content.js';
import { type LineMatcher, startLineMatcher } from './line-matcher.js';
import type { WorkspacePath } from './workspace.js';
import { regularFileStats } from './workspace-files.js';

// A matching line longer than this is cut: a minified file would otherwise fill the output.
const MAX_SHOWN_LINE_LENGTH = 500;

export interface ContentSearch {
  regex: RegExp;
  /** The pattern as given, for messages. */
  pattern: string;
  /** The search stops with `TOOL_TIMEOUT` after this long. */
  timeoutMs: number;
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

/**
 * The lines of `files` that match, skipping binary files, large files and anything not a regular file.
 * The regular expression runs in a worker thread (`startLineMatcher`), stopped when `signal` aborts
 * or `timeoutMs` passes: a catastrophic pattern cannot hold the process.
 */
export async function searchFileContents(
  files: readonly WorkspacePath[],
  search: ContentSearch,
): Promise<ContentMatches> {
  const { regex, pattern, timeoutMs, maxMatches, maxFileBytes, signal } = search;
  const result: ContentMatches = { lines: [], filesMatched: 0, skippedLargeFiles: 0, more: false };
  // Started with the first file to search: none when nothing is.
  let matcher: LineMatcher | undefined;
  try {
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
      const text = bytes.toString('utf8');
      matcher ??= startLineMatcher(regex, { pattern, timeoutMs, signal });
      // One more than still fits: finding it means there are more.
      const matched = await matcher.matchingLines(text, maxMatches - result.lines.length + 1);
      if (matched.length === 0) continue;
      const lines = text.split(/\r?\n/);
      for (const index of matched) {
        if (result.lines.length === maxMatches) {
          result.more = true;
          return result;
        }
        if (index === matched[0]) result.filesMatched++;
        result.lines.push(`${file.relative}:${index + 1}: ${shownLine(lines[index] as string)}`);
      }
    }
    return result;
  } finally {
    await matcher?.close();
  }
}
