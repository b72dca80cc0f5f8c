import type { ToolDetails } from '@cairn/core';
import { defineToolProcessor } from './define-tool-processor.js';
import { fileListDetails, fileListingOf, foundFilesSummary } from './file-list.js';
import { countField, fieldOf, stringField } from './json-fields.js';
import { countOf, truncate } from './summary-text.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { inputText } from './tool-input.js';

export interface ContentSearchProcessorOptions {
  toolNames: readonly string[];
  /**
   * The tool lists matching files unless told otherwise (Claude Code's Grep: `output_mode`
   * defaults to `files_with_matches`), so its output can be read as a file list.
   */
  listsFilesByDefault: boolean;
}

const MAX_PATTERN_LENGTH = 60;
// Gemini CLI: 'Found 3 matches for pattern "x" in path "."…', 'No matches found for pattern…'.
const MATCHES_HEADER = /^Found (\d{1,9}) match(?:es|\(es\))?\b/im;
const NO_MATCHES = /^No matches found\b/im;
// Gemini CLI heads each file's matches with "File: <path>".
const FILE_HEADER = /^File: (.+)$/gm;

function matchCountOf(output: string): number | undefined {
  const header = MATCHES_HEADER.exec(output)?.[1];
  if (header !== undefined) return Number(header);
  return NO_MATCHES.test(output) ? 0 : undefined;
}

// Claude Code's Grep options printing lines around each match (`context` in newer versions).
const CONTEXT_OPTIONS = ['-A', '-B', '-C', 'context'];

/**
 * How many lines matched, from a content-mode result's line count (Claude Code's `numLines`),
 * unless context lines were asked for: those are counted too.
 */
function matchingLinesOf(call: ToolCallView): number | undefined {
  const lines = countField(call.structured, 'numLines');
  if (lines === undefined) return undefined;
  const withContext = CONTEXT_OPTIONS.some((name) => {
    const value = fieldOf(call.input, name);
    return typeof value === 'number' && value > 0;
  });
  return withContext ? undefined : lines;
}

function outputModeOf(call: ToolCallView, listsFilesByDefault: boolean): string | undefined {
  const mode = stringField(call.structured, 'mode') ?? inputText(call, 'output_mode');
  return mode ?? (listsFilesByDefault ? 'files_with_matches' : undefined);
}

function searchedFor(call: ToolCallView): string {
  const pattern = inputText(call, 'pattern') ?? inputText(call, 'query');
  return pattern === undefined
    ? 'Searched file contents'
    : `Searched for "${truncate(pattern, MAX_PATTERN_LENGTH)}"`;
}

/**
 * Grep-like tools: "Found 3 matches", "Found 3 matching lines" or "Found 2 files" (with the files)
 * when the result says, else 'Searched for "x"'.
 */
export function createContentSearchProcessor({
  toolNames,
  listsFilesByDefault,
}: ContentSearchProcessorOptions): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Search',
    summarize: (call) => {
      const mode = outputModeOf(call, listsFilesByDefault);
      if (mode === 'files_with_matches') return foundFilesSummary(fileListingOf(call));
      const lines = mode === 'content' ? matchingLinesOf(call) : undefined;
      if (lines !== undefined) return `Found ${countOf(lines, 'matching line')}`;
      const matches =
        mode === 'count' ? countField(call.structured, 'numMatches') : matchCountOf(call.output);
      return matches === undefined ? searchedFor(call) : `Found ${countOf(matches, 'match', 'matches')}`;
    },
    details: (call): ToolDetails | undefined => {
      if (call.isError) return undefined;
      if (outputModeOf(call, listsFilesByDefault) === 'files_with_matches')
        return fileListDetails(fileListingOf(call).files);
      const files = [...call.output.matchAll(FILE_HEADER)].flatMap((match) => match[1]?.trim() ?? []);
      return files.length === 0 ? undefined : fileListDetails(files);
    },
  });
}
