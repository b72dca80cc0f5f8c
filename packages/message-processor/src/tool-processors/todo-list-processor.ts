import { defineToolProcessor } from './define-tool-processor.js';
import { arrayField, fieldOf, stringField } from './json-fields.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';

// The order statuses are counted in: what is done first, what is left last.
const STATUS_ORDER = ['completed', 'in_progress', 'pending', 'cancelled'];

// The todos the call set: its input's (Claude Code's TodoWrite, Gemini CLI's write_todos), else
// the result's `newTodos` (TodoWrite's `tool_use_result`).
function todosOf(call: ToolCallView): readonly unknown[] | undefined {
  return arrayField(call.input, 'todos') ?? arrayField(call.structured, 'newTodos');
}

// "1 completed, 1 in progress, 2 pending": how many todos are in each state.
function statusCounts(todos: readonly unknown[]): string {
  const counts = new Map<string, number>();
  for (const todo of todos) {
    const status =
      stringField(todo, 'status') ?? (fieldOf(todo, 'status') === undefined ? undefined : 'other');
    if (status !== undefined) counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const rank = (status: string) => {
    const index = STATUS_ORDER.indexOf(status);
    return index === -1 ? STATUS_ORDER.length : index;
  };
  return [...counts]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([status, count]) => `${count} ${status.replaceAll('_', ' ')}`)
    .join(', ');
}

/** Todo-list updates (`todos: [...]`): "Updated todos (3): 1 completed, 2 pending". */
export function createTodoListProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Todo update',
    summarize: (call) => {
      const todos = todosOf(call);
      if (todos === undefined) return 'Updated todos';
      const counts = statusCounts(todos);
      return `Updated todos (${todos.length})${counts === '' ? '' : `: ${counts}`}`;
    },
  });
}
