import { createEditFileProcessor } from './file-edit-processor.js';
import { singleEditOf } from './file-edits.js';
import { createTodoListProcessor } from './todo-list-processor.js';
import type { ToolProcessor } from './tool-call-view.js';

/**
 * Qwen Code's tools that Gemini CLI names differently: `edit` (Gemini's `replace`, the same input)
 * and `todo_write` (`todos: [...]`). Its other tools (`write_file`, `read_file`,
 * `run_shell_command`, `list_directory`, `grep_search`, `glob`, `web_fetch`) are Gemini CLI's.
 */
export const qwenCodeToolProcessors: readonly ToolProcessor[] = [
  createEditFileProcessor({ toolNames: ['edit'], editsOf: singleEditOf }),
  createTodoListProcessor(['todo_write']),
];
