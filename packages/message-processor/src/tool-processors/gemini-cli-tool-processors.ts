import { createCommandProcessor } from './command-processor.js';
import { createContentSearchProcessor } from './content-search-processor.js';
import { defineToolProcessor } from './define-tool-processor.js';
import { createDirectoryListProcessor } from './directory-list-processor.js';
import { createEditFileProcessor } from './file-edit-processor.js';
import { singleEditOf } from './file-edits.js';
import { stringsField } from './json-fields.js';
import { globProcessor, readFileProcessor, writeFileProcessor } from './shared-tool-processors.js';
import { countOf, truncate } from './summary-text.js';
import { createTodoListProcessor } from './todo-list-processor.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { createWebFetchProcessor } from './web-fetch-processor.js';

const MAX_PATTERNS_LENGTH = 80;
// "Successfully read and concatenated content from **3 file(s)**."
const FILE_COUNT = /\b(\d{1,9}) file\(s\)/;
// The model's view separates the files with "--- <path> ---" lines (and ends with "--- End of content ---").
const FILE_SEPARATOR = /^--- (?!End of content ---$).+ ---$/gm;

function filesReadIn(output: string): number | undefined {
  const stated = FILE_COUNT.exec(output)?.[1];
  if (stated !== undefined) return Number(stated);
  const separators = output.match(FILE_SEPARATOR)?.length ?? 0;
  return separators === 0 ? undefined : separators;
}

function readManyFilesSummary(call: ToolCallView): string {
  const count = filesReadIn(call.output);
  if (count !== undefined) return `Read ${countOf(count, 'file')}`;
  // Paths and globs: `paths` until Gemini CLI renamed it `include`.
  const patterns = stringsField(call.input, 'paths') ?? stringsField(call.input, 'include') ?? [];
  return patterns.length === 0 ? 'Read files' : `Read ${truncate(patterns.join(', '), MAX_PATTERNS_LENGTH)}`;
}

/** Gemini CLI's built-in tools (`grep_search` and `write_todos` are newer versions' names). */
export const geminiCliToolProcessors: readonly ToolProcessor[] = [
  createEditFileProcessor({ toolNames: ['replace'], editsOf: singleEditOf }),
  writeFileProcessor,
  readFileProcessor,
  defineToolProcessor({ toolNames: ['read_many_files'], label: 'Read', summarize: readManyFilesSummary }),
  createCommandProcessor(['run_shell_command']),
  globProcessor,
  createContentSearchProcessor({
    toolNames: ['search_file_content', 'grep_search'],
    listsFilesByDefault: false,
  }),
  createDirectoryListProcessor(['list_directory']),
  createWebFetchProcessor(['web_fetch']),
  createTodoListProcessor(['write_todos']),
];
