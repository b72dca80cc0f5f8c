import { defineToolProcessor } from './define-tool-processor.js';
import { arrayField } from './json-fields.js';
import type { ToolProcessor } from './tool-call-view.js';

/** Todo-list updates (`todos: [...]`): "Updated todos (3)". */
export function createTodoListProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Todo update',
    summarize: (call) => {
      const todos = arrayField(call.input, 'todos');
      return todos === undefined ? 'Updated todos' : `Updated todos (${todos.length})`;
    },
  });
}
