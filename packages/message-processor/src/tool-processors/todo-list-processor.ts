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

// "1 completed, 1 in progress, 2 pending": how many todos are in each state, the known states in
// STATUS_ORDER's order, then the others as first seen.
function statusCounts(todos: readonly unknown[]): string {
  const statuses: string[] = [];
  const counts: number[] = [];
  for (const todo of todos) {
    const status =
      stringField(todo, 'status') ?? (fieldOf(todo, 'status') === undefined ? undefined : 'other');
    if (status === undefined) continue;
    const index = statuses.indexOf(status);
    if (index === -1) {
      statuses.push(status);
      counts.push(1);
    } else counts[index] = (counts[index] as number) + 1;
  }
  const shown: string[] = [];
  const add = (index: number) =>
    shown.push(`${counts[index]} ${(statuses[index] as string).replaceAll('_', ' ')}`);
  for (const status of STATUS_ORDER) {
    const index = statuses.indexOf(status);
    if (index !== -1) add(index);
  }
  for (let index = 0; index < statuses.length; index++)
    if (!STATUS_ORDER.includes(statuses[index] as string)) add(index);
  return shown.join(', ');
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
