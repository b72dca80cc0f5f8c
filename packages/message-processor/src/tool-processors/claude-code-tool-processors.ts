import { claudeCodeTaskProcessors } from './claude-code-task-processors.js';
import { createCommandProcessor } from './command-processor.js';
import { createContentSearchProcessor } from './content-search-processor.js';
import { createDirectoryListProcessor } from './directory-list-processor.js';
import { createEditFileProcessor } from './file-edit-processor.js';
import { multipleEditsOf, singleEditOf } from './file-edits.js';
import { createReadFileProcessor } from './file-read-processor.js';
import { createFileSearchProcessor } from './file-search-processor.js';
import { createWriteFileProcessor } from './file-write-processor.js';
import { createTodoListProcessor } from './todo-list-processor.js';
import type { ToolProcessor } from './tool-call-view.js';
import { createWebFetchProcessor } from './web-fetch-processor.js';

/** Claude Code's built-in tools. */
export const claudeCodeToolProcessors: readonly ToolProcessor[] = [
  createEditFileProcessor({ toolNames: ['Edit'], editsOf: singleEditOf }),
  createEditFileProcessor({ toolNames: ['MultiEdit'], editsOf: multipleEditsOf }),
  createWriteFileProcessor(['Write']),
  createReadFileProcessor(['Read']),
  createCommandProcessor(['Bash']),
  createFileSearchProcessor(['Glob']),
  createContentSearchProcessor({ toolNames: ['Grep'], listsFilesByDefault: true }),
  createDirectoryListProcessor(['LS']),
  createWebFetchProcessor(['WebFetch']),
  createTodoListProcessor(['TodoWrite']),
  ...claudeCodeTaskProcessors,
];
