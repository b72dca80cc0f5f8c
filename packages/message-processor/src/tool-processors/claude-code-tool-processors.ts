import { createCommandProcessor } from './command-processor.js';
import { createContentSearchProcessor } from './content-search-processor.js';
import { defineToolProcessor } from './define-tool-processor.js';
import { createDirectoryListProcessor } from './directory-list-processor.js';
import { createEditFileProcessor } from './file-edit-processor.js';
import { multipleEditsOf, singleEditOf } from './file-edits.js';
import { createReadFileProcessor } from './file-read-processor.js';
import { createFileSearchProcessor } from './file-search-processor.js';
import { createWriteFileProcessor } from './file-write-processor.js';
import { truncate } from './summary-text.js';
import { createTodoListProcessor } from './todo-list-processor.js';
import type { ToolProcessor } from './tool-call-view.js';
import { inputText } from './tool-input.js';
import { createWebFetchProcessor } from './web-fetch-processor.js';

const MAX_TASK_LENGTH = 80;

/** A sub-agent run: "Task: <description>". */
const taskProcessor = defineToolProcessor({
  toolNames: ['Task'],
  label: 'Task',
  summarize: (call) => {
    const task = inputText(call, 'description') ?? inputText(call, 'subagent_type');
    return task === undefined ? 'Task completed' : `Task: ${truncate(task, MAX_TASK_LENGTH)}`;
  },
});

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
  taskProcessor,
];
