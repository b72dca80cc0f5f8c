import { defineToolProcessor } from './define-tool-processor.js';
import { arrayField, countField, fieldOf, stringField } from './json-fields.js';
import { countOf, truncate } from './summary-text.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { inputText } from './tool-input.js';

const MAX_TASK_LENGTH = 80;

const shown = (text: string): string => truncate(text, MAX_TASK_LENGTH);

// Claude Code's tools name a task `taskId` (the task list) or `task_id` (background shells and
// agents; `shell_id` in older versions).
function taskIdOf(call: ToolCallView): string | undefined {
  return inputText(call, 'taskId') ?? inputText(call, 'task_id') ?? inputText(call, 'shell_id');
}

// "#1" for the task list's numbers, the id as is for a background task's.
const taskName = (id: string): string => (/^\d+$/.test(id) ? `#${id}` : id);

/**
 * The sub-agent tool: `Agent` in Claude Code 2.x (`Task` before). Its summary says what the
 * sub-agent was asked and, once it finished, how much it did: "Sub-agent: List the directory (1 tool call)".
 */
const subAgentProcessor = defineToolProcessor({
  toolNames: ['Agent', 'Task'],
  label: (call) => {
    const task = inputText(call, 'description');
    return task === undefined ? 'Sub-agent' : `Sub-agent "${shown(task)}"`;
  },
  summarize: (call) => {
    const task = inputText(call, 'description') ?? inputText(call, 'subagent_type');
    const toolUses = countField(call.structured, 'totalToolUseCount');
    const done = toolUses === undefined ? '' : ` (${countOf(toolUses, 'tool call')})`;
    return task === undefined ? `Sub-agent finished${done}` : `Sub-agent: ${shown(task)}${done}`;
  },
});

/** `TaskCreate`: "Created task #1: Write hello.txt" (the number from the result). */
const taskCreateProcessor = defineToolProcessor({
  toolNames: ['TaskCreate'],
  label: 'Create task',
  summarize: (call) => {
    const task = fieldOf(call.structured, 'task');
    const id = stringField(task, 'id');
    const subject = stringField(task, 'subject') ?? inputText(call, 'subject');
    const name = id === undefined ? 'task' : `task ${taskName(id)}`;
    return subject === undefined ? `Created ${name}` : `Created ${name}: ${shown(subject)}`;
  },
});

/** `TaskGet`: "Read task #1: Write hello.txt". */
const taskGetProcessor = defineToolProcessor({
  toolNames: ['TaskGet'],
  label: 'Read task',
  summarize: (call) => {
    const id = taskIdOf(call);
    const subject = stringField(fieldOf(call.structured, 'task'), 'subject');
    const name = id === undefined ? 'a task' : `task ${taskName(id)}`;
    return subject === undefined ? `Read ${name}` : `Read ${name}: ${shown(subject)}`;
  },
});

/** `TaskList`: "Listed 3 tasks". */
const taskListProcessor = defineToolProcessor({
  toolNames: ['TaskList'],
  label: 'List tasks',
  summarize: (call) => {
    const tasks = arrayField(call.structured, 'tasks');
    return tasks === undefined ? 'Listed the tasks' : `Listed ${countOf(tasks.length, 'task')}`;
  },
});

/** `TaskUpdate`: "Marked task #1 completed", or "Updated task #1" for other changes. */
const taskUpdateProcessor = defineToolProcessor({
  toolNames: ['TaskUpdate'],
  label: 'Update task',
  summarize: (call) => {
    const id = taskIdOf(call);
    const name = id === undefined ? 'a task' : `task ${taskName(id)}`;
    const status = inputText(call, 'status');
    if (status === 'deleted') return `Deleted ${name}`;
    return status === undefined ? `Updated ${name}` : `Marked ${name} ${status.replaceAll('_', ' ')}`;
  },
});

/**
 * `TaskOutput`: "Read the output of task b1x2 (completed)"; for a task still running when asked
 * not to wait (`retrieval_status: not_ready`, as recorded), "Checked task b1x2: still running, no
 * output yet", since nothing was read.
 */
const taskOutputProcessor = defineToolProcessor({
  toolNames: ['TaskOutput'],
  label: 'Read task output',
  summarize: (call) => {
    const id = taskIdOf(call);
    const name = id === undefined ? 'a task' : `task ${taskName(id)}`;
    const status = stringField(fieldOf(call.structured, 'task'), 'status');
    const retrieval = stringField(call.structured, 'retrieval_status');
    if (retrieval === 'not_ready' || retrieval === 'timeout')
      return `Checked ${name}: still ${status ?? 'running'}, no output yet`;
    return status === undefined ? `Read the output of ${name}` : `Read the output of ${name} (${status})`;
  },
});

/** `TaskStop` (`KillShell` before): "Stopped task b1x2". */
const taskStopProcessor = defineToolProcessor({
  toolNames: ['TaskStop', 'KillShell'],
  label: 'Stop task',
  summarize: (call) => {
    const id = taskIdOf(call);
    return id === undefined ? 'Stopped a task' : `Stopped task ${taskName(id)}`;
  },
});

/** Claude Code's sub-agent and task tools (the todo list is `createTodoListProcessor`'s). */
export const claudeCodeTaskProcessors: readonly ToolProcessor[] = [
  subAgentProcessor,
  taskCreateProcessor,
  taskGetProcessor,
  taskListProcessor,
  taskUpdateProcessor,
  taskOutputProcessor,
  taskStopProcessor,
];
