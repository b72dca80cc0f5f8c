import type { Tool } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { fileSystemFailure, statIfExists } from './file-system.js';
import { type ContentMatches, searchFileContents } from './search-file-contents.js';
import { countOf } from './text-counts.js';
import { openWorkspace, type WorkspacePath } from './workspace.js';
import { assertPatternStaysInside, findWorkspaceFiles } from './workspace-files.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';

const grepInput = z.object({
  pattern: z.string().min(1).describe('A JavaScript regular expression, matched against each line.'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The file or directory to search: relative to the workspace root, or absolute inside it. Default: the root.',
    ),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob: "*.ts" (in any directory), "src/**/*.md".'),
  ignore_case: z.boolean().optional().describe('Match case-insensitively. Default false.'),
});

export type GrepInput = z.output<typeof grepInput>;

function regexOf(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new CairnError(
      'TOOL_INVALID_INPUT',
      `The pattern is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

// Like ripgrep's --glob: a pattern without a slash matches file names in any directory.
const filePatternOf = (glob: string | undefined) =>
  glob === undefined ? '**/*' : glob.includes('/') ? glob : `**/${glob}`;

/** "Found 3 matches in 2 files" (the header displays count matches by) and the lines, or "No matches found …". */
function searchReport(
  found: ContentMatches,
  pattern: string,
  searched: string,
  maxFileBytes: number,
): string {
  const skipped =
    found.skippedLargeFiles === 0
      ? ''
      : `\n(${countOf(found.skippedLargeFiles, 'file')} over ${maxFileBytes} bytes not searched)`;
  if (found.lines.length === 0) {
    return `No matches found for ${JSON.stringify(pattern)} in ${searched}${skipped}`;
  }
  const header =
    `Found ${countOf(found.lines.length, 'match', 'matches')} in ${countOf(found.filesMatched, 'file')}` +
    (found.more
      ? ` (stopped at ${found.lines.length}; there are more: narrow the pattern, path or glob)`
      : '');
  return `${header}${skipped}\n${found.lines.join('\n')}`;
}

/** `grep`: searches file contents with a regular expression; lines come as `path:line: text`. */
export function createGrepTool(options: WorkspaceToolsOptions = {}): Tool<GrepInput, string> {
  const { maxGrepMatches, maxGrepFileBytes, grepTimeoutMs } = workspaceToolLimits(options);
  return defineTool({
    name: 'grep',
    description:
      'Searches the contents of the workspace files with a JavaScript regular expression. Prints ' +
      `"path:line: text" for each matching line, at most ${maxGrepMatches}, paths relative to the workspace ` +
      `root. Binary files, files over ${maxGrepFileBytes} bytes, node_modules and .git are skipped. ` +
      'Narrow it with path and glob.',
    category: 'read',
    // Reading twice does no harm: after a crash mid-call it is simply read again.
    idempotent: true,
    input: grepInput,
    async execute({ pattern, path = '.', glob, ignore_case = false }, context) {
      const regex = regexOf(pattern, ignore_case);
      if (glob !== undefined) assertPatternStaysInside(glob);
      const workspace = await openWorkspace(options.root, context);
      const target = await workspace.resolve(path);
      try {
        const stats = await statIfExists(target.absolute);
        if (stats === undefined) throw new CairnError('TOOL_FAILED', `Not found: ${target.relative}`);
        const files: WorkspacePath[] = stats.isDirectory()
          ? await findWorkspaceFiles(workspace, target, filePatternOf(glob), context.signal)
          : [target];
        const found = await searchFileContents(files, {
          regex,
          pattern,
          timeoutMs: grepTimeoutMs,
          maxMatches: maxGrepMatches,
          maxFileBytes: maxGrepFileBytes,
          signal: context.signal,
        });
        return searchReport(found, pattern, target.relative, maxGrepFileBytes);
      } catch (error) {
        throw fileSystemFailure(error, 'search', target.relative);
      }
    },
  });
}
