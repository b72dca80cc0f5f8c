import type { Tool } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { fileLooksBinary } from './binary-content.js';
import { fileSystemFailure, statIfExists } from './file-system.js';
import { MAX_LINE_LENGTH, readNumberedLines } from './read-numbered-lines.js';
import { countOf } from './text-counts.js';
import { openWorkspace } from './workspace.js';
import { type WorkspaceToolsOptions, workspaceToolLimits } from './workspace-tools-options.js';

const readFileInput = z.object({
  path: z.string().min(1).describe('The file: relative to the workspace root, or absolute inside it.'),
  offset: z.number().int().min(1).optional().describe('The first line to read, 1-based. Default 1.'),
  limit: z.number().int().min(1).optional().describe('How many lines to read. Default: as many as allowed.'),
});

export type ReadFileInput = z.output<typeof readFileInput>;

const failed = (message: string) => new CairnError('TOOL_FAILED', message);

/** `read_file`: a text file's lines, numbered like `cat -n`, a page at a time. */
export function createReadFileTool(options: WorkspaceToolsOptions = {}): Tool<ReadFileInput, string> {
  const { maxReadLines, maxReadBytes } = workspaceToolLimits(options);
  return defineTool({
    name: 'read_file',
    description:
      `Reads a text file of the workspace. Lines come numbered (number, tab, line); at most ${maxReadLines} ` +
      `lines per call, lines over ${MAX_LINE_LENGTH} characters are cut. Use offset and limit to read a ` +
      'long file in parts. Directories: use list_dir.',
    category: 'read',
    // Reading twice does no harm: after a crash mid-call it is simply read again.
    idempotent: true,
    input: readFileInput,
    async execute({ path, offset = 1, limit }, context) {
      const workspace = await openWorkspace(options.root, context);
      const file = await workspace.resolve(path);
      try {
        const stats = await statIfExists(file.absolute);
        if (stats === undefined) throw failed(`File not found: ${file.relative}`);
        if (stats.isDirectory())
          throw failed(`${file.relative} is a directory; use list_dir to see what it holds.`);
        if (!stats.isFile()) throw failed(`${file.relative} is not a regular file.`);
        if (stats.size === 0) return `${file.relative} is empty.`;
        if (await fileLooksBinary(file.absolute)) {
          throw failed(
            `${file.relative} looks like a binary file (it has NUL bytes); read_file only reads text.`,
          );
        }
        const lines = await readNumberedLines(file.absolute, {
          offset,
          maxLines: Math.min(limit ?? maxReadLines, maxReadLines),
          maxBytes: maxReadBytes,
          signal: context.signal,
        });
        if (lines.count === 0) {
          throw failed(
            `Offset ${offset} is past the end of ${file.relative}, which has ${countOf(lines.total ?? 0, 'line')}.`,
          );
        }
        if (!lines.more) return lines.text;
        const last = offset + lines.count - 1;
        return `${lines.text}\n\n[Showing lines ${offset}-${last}; the file goes on. Call read_file with offset ${last + 1} to read more.]`;
      } catch (error) {
        throw fileSystemFailure(error, 'read', file.relative);
      }
    },
  });
}
