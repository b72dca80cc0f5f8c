import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Tool } from '@cairn/core';
import { CairnError, definedFields } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { withFileLock } from './file-lock.js';
import { fileSystemFailure, statIfExists } from './file-system.js';
import { countOf, lineCountOf } from './text-counts.js';
import { openWorkspace } from './workspace.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';
import { writeFileAtomic } from './write-file-atomic.js';

const writeFileInput = z.object({
  path: z.string().min(1).describe('The file: relative to the workspace root, or absolute inside it.'),
  content: z.string().describe('The whole new content of the file.'),
});

export type WriteFileInput = z.output<typeof writeFileInput>;

/** What `write_file` did, shaped like Claude Code's Write result so displays can diff an overwrite. */
export interface WriteFileResult {
  type: 'create' | 'update';
  /** Relative to the workspace root. */
  filePath: string;
  lineCount: number;
  /** The content replaced, unless it was larger than `maxEditFileBytes`. */
  originalFile?: string;
}

/** `write_file`: creates or overwrites a whole file, atomically, creating its directories. */
export function createWriteFileTool(
  options: WorkspaceToolsOptions = {},
): Tool<WriteFileInput, WriteFileResult> {
  const { maxEditFileBytes } = workspaceToolLimits(options);
  return defineTool({
    name: 'write_file',
    description:
      'Writes a whole file of the workspace: creates it (and its directories) or replaces its content. ' +
      'To change part of an existing file, prefer edit_file.',
    category: 'write',
    // Writing the same content again leaves the same file.
    idempotent: true,
    input: writeFileInput,
    async execute({ path, content }, context): Promise<WriteFileResult> {
      const workspace = await openWorkspace(options.root, context);
      const file = await workspace.resolve(path);
      try {
        // One write (or edit) of this file at a time: the old content read is the one replaced.
        return await withFileLock(file.absolute, context.signal, async (): Promise<WriteFileResult> => {
          const existing = await statIfExists(file.absolute);
          if (existing !== undefined && !existing.isFile()) {
            const what = existing.isDirectory() ? 'a directory' : 'not a regular file';
            throw new CairnError('TOOL_FAILED', `${file.relative} is ${what}; give the path of a file.`);
          }
          const originalFile =
            existing !== undefined && existing.size <= maxEditFileBytes
              ? await readFile(file.absolute, 'utf8')
              : undefined;
          await mkdir(dirname(file.absolute), { recursive: true });
          await writeFileAtomic(
            file.absolute,
            content,
            existing === undefined ? undefined : existing.mode & 0o7777,
          );
          return {
            type: existing === undefined ? 'create' : 'update',
            filePath: file.relative,
            lineCount: lineCountOf(content),
            ...definedFields({ originalFile }),
          };
        });
      } catch (error) {
        throw fileSystemFailure(error, 'write', file.relative);
      }
    },
    toModelOutput: ({ type, filePath, lineCount }) =>
      `${type === 'create' ? 'Created' : 'Updated'} ${filePath} (${countOf(lineCount, 'line')})`,
  });
}
