import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Tool } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { looksBinary } from './binary-content.js';
import { withFileLock } from './file-lock.js';
import { fileSystemFailure, statIfExists } from './file-system.js';
import { countOf } from './text-counts.js';
import { openWorkspace } from './workspace.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';
import { writeFileAtomic } from './write-file-atomic.js';

const editFileInput = z.object({
  path: z.string().min(1).describe('The file: relative to the workspace root, or absolute inside it.'),
  old_string: z
    .string()
    .describe('The exact text to replace, whitespace included. Empty to create a file that does not exist.'),
  new_string: z.string().describe('The text to put in its place.'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of exactly one. Default false.'),
});

export type EditFileInput = z.output<typeof editFileInput>;

/** What `edit_file` did; `originalFile` lets a display show the whole-file diff. */
export interface EditFileResult {
  type: 'create' | 'update';
  /** Relative to the workspace root. */
  filePath: string;
  /** The file before the edit ('' for a created one). */
  originalFile: string;
  /** How many occurrences were replaced (updates only). */
  replacements?: number;
}

const failed = (message: string) => new CairnError('TOOL_FAILED', message);

function occurrencesOf(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/** `edit_file`: replaces one exact snippet of a file (or every occurrence), atomically. */
export function createEditFileTool(options: WorkspaceToolsOptions = {}): Tool<EditFileInput, EditFileResult> {
  const { maxEditFileBytes } = workspaceToolLimits(options);

  async function readEditable(absolute: string, shown: string): Promise<{ text: string; mode: number }> {
    const stats = await statIfExists(absolute);
    if (stats === undefined) {
      throw failed(`File not found: ${shown}. To create a file, use write_file or an empty old_string.`);
    }
    if (!stats.isFile()) throw failed(`${shown} is not a file.`);
    if (stats.size > maxEditFileBytes) {
      throw failed(`${shown} is ${stats.size} bytes, more than the ${maxEditFileBytes} edit_file handles.`);
    }
    const bytes = await readFile(absolute);
    if (looksBinary(bytes)) throw failed(`${shown} looks like a binary file; edit_file only edits text.`);
    return { text: bytes.toString('utf8'), mode: stats.mode & 0o7777 };
  }

  return defineTool({
    name: 'edit_file',
    description:
      'Edits a file of the workspace by replacing old_string (exact text, indentation included) with ' +
      'new_string. old_string must occur exactly once, so include enough surrounding lines to make it ' +
      'unique, or set replace_all. An empty old_string creates a new file with new_string as content.',
    category: 'write',
    input: editFileInput,
    async execute({ path, old_string, new_string, replace_all = false }, context): Promise<EditFileResult> {
      if (old_string === new_string) {
        throw new CairnError(
          'TOOL_INVALID_INPUT',
          'old_string and new_string are the same: the edit would change nothing.',
        );
      }
      const workspace = await openWorkspace(options.root, context);
      const file = await workspace.resolve(path);
      try {
        // Read, edit, write: another call on this file waits, so neither edit is lost.
        return await withFileLock(file.absolute, context.signal, async (): Promise<EditFileResult> => {
          if (old_string === '') {
            if ((await statIfExists(file.absolute)) !== undefined) {
              throw failed(
                `${file.relative} already exists; an empty old_string only creates new files. Give the text to replace, or use write_file.`,
              );
            }
            await mkdir(dirname(file.absolute), { recursive: true });
            await writeFileAtomic(file.absolute, new_string);
            return { type: 'create', filePath: file.relative, originalFile: '' };
          }
          const original = await readEditable(file.absolute, file.relative);
          const found = occurrencesOf(original.text, old_string);
          if (found === 0) {
            throw failed(
              `old_string was not found in ${file.relative}. It must match the file exactly, whitespace and line breaks included; read the file again and copy the text.`,
            );
          }
          if (found > 1 && !replace_all) {
            throw failed(
              `old_string occurs ${found} times in ${file.relative}. Include more surrounding lines so it matches exactly once, or set replace_all to replace all ${found}.`,
            );
          }
          // Spliced in, not String.replace: `$&` and the like in new_string stay as they are.
          const at = original.text.indexOf(old_string);
          const edited = replace_all
            ? original.text.split(old_string).join(new_string)
            : original.text.slice(0, at) + new_string + original.text.slice(at + old_string.length);
          await writeFileAtomic(file.absolute, edited, original.mode);
          return {
            type: 'update',
            filePath: file.relative,
            originalFile: original.text,
            replacements: found,
          };
        });
      } catch (error) {
        throw fileSystemFailure(error, 'edit', file.relative);
      }
    },
    toModelOutput: ({ type, filePath, replacements = 0 }) =>
      type === 'create'
        ? `Created ${filePath}`
        : `Updated ${filePath} (${countOf(replacements, 'replacement')})`,
  });
}
