import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { fileSystemFailure, statIfExists } from './file-system.js';
import { openWorkspace, type Workspace } from './workspace.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';

const listDirInput = z.object({
  path: z
    .string()
    .min(1)
    .optional()
    .describe('The directory: relative to the workspace root, or absolute inside it. Default: the root.'),
});

export type ListDirInput = z.output<typeof listDirInput>;

/** A directory's entries; `filenames` and `numFiles` are what displays read of a file list. */
export interface ListDirResult {
  /** The directory, relative to the workspace root. */
  path: string;
  /** Entry names, sorted, directories ending with `/`; the first `maxListEntries`. */
  filenames: string[];
  /** How many entries the directory has. */
  numFiles: number;
}

/** A symlink is shown as a directory only when it leads to one inside the workspace. */
async function isDirectory(entry: Dirent, directory: string, workspace: Workspace): Promise<boolean> {
  if (!entry.isSymbolicLink()) return entry.isDirectory();
  try {
    const target = await realpath(join(directory, entry.name));
    return workspace.contains(target) && (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}

/** `list_dir`: the entries of one directory. */
export function createListDirTool(options: WorkspaceToolsOptions = {}): Tool<ListDirInput, ListDirResult> {
  const { maxListEntries } = workspaceToolLimits(options);
  return defineTool({
    name: 'list_dir',
    description:
      'Lists a directory of the workspace: one entry per line, sorted, directories ending with "/". ' +
      'To find files by name across directories, use glob.',
    category: 'read',
    // Reading twice does no harm: after a crash mid-call it is simply read again.
    idempotent: true,
    input: listDirInput,
    async execute({ path = '.' }, context): Promise<ListDirResult> {
      const workspace = await openWorkspace(options.root, context);
      const directory = await workspace.resolve(path);
      try {
        const stats = await statIfExists(directory.absolute);
        if (stats === undefined)
          throw new CairnError('TOOL_FAILED', `Directory not found: ${directory.relative}`);
        if (!stats.isDirectory()) {
          throw new CairnError(
            'TOOL_FAILED',
            `${directory.relative} is not a directory; use read_file to read a file.`,
          );
        }
        const entries = (await readdir(directory.absolute, { withFileTypes: true })).sort((a, b) =>
          a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
        );
        const shown = entries.slice(0, maxListEntries);
        const filenames = await Promise.all(
          shown.map(async (entry) =>
            (await isDirectory(entry, directory.absolute, workspace)) ? `${entry.name}/` : entry.name,
          ),
        );
        return { path: directory.relative, filenames, numFiles: entries.length };
      } catch (error) {
        throw fileSystemFailure(error, 'list', directory.relative);
      }
    },
    toModelOutput({ path, filenames, numFiles }) {
      if (numFiles === 0) return `Directory ${path} is empty.`;
      const cut = numFiles - filenames.length;
      return cut > 0 ? `${filenames.join('\n')}\n[${cut} more entries truncated]` : filenames.join('\n');
    },
  });
}
