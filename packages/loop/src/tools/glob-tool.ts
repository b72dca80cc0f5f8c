import type { Tool } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { fileSystemFailure, statIfExists } from './file-system.js';
import { openWorkspace } from './workspace.js';
import { assertPatternStaysInside, findWorkspaceFiles } from './workspace-files.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';

const globInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A glob pattern relative to path: "**/*.ts", "src/**/*.test.ts", "*.md".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The directory to search: relative to the workspace root, or absolute inside it. Default: the root.',
    ),
});

export type GlobInput = z.output<typeof globInput>;

/** The files found, shaped like Claude Code's Glob result. */
export interface GlobResult {
  /** Relative to the workspace root, sorted; the first `maxGlobResults`. */
  filenames: string[];
  numFiles: number;
  /** More files matched than are listed. */
  truncated: boolean;
}

/** `glob`: finds files by name pattern (node_modules and .git skipped). */
export function createGlobTool(options: WorkspaceToolsOptions = {}): Tool<GlobInput, GlobResult> {
  const { maxGlobResults } = workspaceToolLimits(options);
  return defineTool({
    name: 'glob',
    description:
      'Finds files of the workspace whose path matches a glob pattern ("**/*.ts"), searched from path. ' +
      `Returns paths relative to the workspace root, sorted, at most ${maxGlobResults}; node_modules and .git ` +
      'are skipped. To search file contents, use grep.',
    category: 'read',
    // Reading twice does no harm: after a crash mid-call it is simply read again.
    idempotent: true,
    input: globInput,
    async execute({ pattern, path = '.' }, context): Promise<GlobResult> {
      assertPatternStaysInside(pattern);
      const workspace = await openWorkspace(options.root, context);
      const directory = await workspace.resolve(path);
      try {
        if (!(await statIfExists(directory.absolute))?.isDirectory()) {
          throw new CairnError('TOOL_FAILED', `${directory.relative} is not a directory of the workspace.`);
        }
        const found = await findWorkspaceFiles(workspace, directory, pattern, context.signal);
        const filenames = found.slice(0, maxGlobResults).map((file) => file.relative);
        return { filenames, numFiles: filenames.length, truncated: found.length > filenames.length };
      } catch (error) {
        throw fileSystemFailure(error, 'search', directory.relative);
      }
    },
    toModelOutput({ filenames, truncated }) {
      if (filenames.length === 0) return 'No files found';
      const list = filenames.join('\n');
      return truncated
        ? `${list}\n(Results are truncated: only the first ${filenames.length} are shown. Use a more specific pattern or path.)`
        : list;
    },
  });
}
