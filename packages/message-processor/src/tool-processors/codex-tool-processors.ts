import type { JsonValue, ToolDetails } from '@cairn/core';
import { codexShellCommand, simpleCommandWords } from './codex-shell-command.js';
import { commandOutputDetails } from './command-output.js';
import { createCommandProcessor } from './command-processor.js';
import { createContentSearchProcessor } from './content-search-processor.js';
import { defineToolProcessor } from './define-tool-processor.js';
import { createDirectoryListProcessor } from './directory-list-processor.js';
import { displayPath } from './display-path.js';
import { failureSummary } from './failure-summary.js';
import { arrayField, stringField } from './json-fields.js';
import { readFileProcessor } from './shared-tool-processors.js';
import { countOf, truncate } from './summary-text.js';
import { createTodoListProcessor } from './todo-list-processor.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { inputText } from './tool-input.js';

// The tool names `@cairn/agent-cli/codex` gives Codex's items (`CODEX_TOOL_NAMES` there).
const COMMAND = 'command_execution';
const FILE_CHANGE = 'file_change';

const shellCommand = createCommandProcessor([COMMAND]);
const fileRead = readFileProcessor;
const directoryList = createDirectoryListProcessor([COMMAND]);
const contentSearch = createContentSearchProcessor({ toolNames: [COMMAND], listsFilesByDefault: false });

// Programs whose last word is the one file they print.
const READERS = new Set(['cat', 'head', 'tail', 'nl', 'sed', 'less', 'more', 'bat']);
const SEARCHERS = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag']);

/** The shared processor that describes a command best, and the call as that processor reads it. */
function viewOf(call: ToolCallView): { processor: ToolProcessor; call: ToolCallView } {
  const command = codexShellCommand(inputText(call, 'command') ?? '');
  const words = simpleCommandWords(command);
  const [program, ...args] = words ?? [];
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const as = (processor: ToolProcessor, input: JsonValue) => ({ processor, call: { ...call, input } });
  // Codex reads, lists and searches with the shell: `cat x`, `sed -n '1,80p' x`, `ls src`, `rg foo src`.
  if (
    program !== undefined &&
    READERS.has(program) &&
    operands.length >= 1 &&
    (program !== 'sed' || args.includes('-n'))
  )
    return as(fileRead, { file_path: operands.at(-1) as string });
  // Only a plain `ls` prints one entry a line; `ls -la` adds a total, `.` and `..`.
  if (program === 'ls' && args.length <= 1 && operands.length === args.length)
    return as(directoryList, operands.length === 1 ? { path: operands[0] as string } : {});
  if (program !== undefined && SEARCHERS.has(program) && operands.length >= 1) {
    const input: Record<string, JsonValue> = { pattern: operands[0] as string };
    if (operands[1] !== undefined) input.path = operands[1];
    return as(contentSearch, input);
  }
  return as(shellCommand, { command });
}

/**
 * Codex's commands. Simple reads, listings and searches are described as such ("Read hello.txt",
 * "Listed src", "Searched for \"foo\""), anything else as a command without Codex's shell wrapper
 * ("Ran `npm test`"); the details are always the command's output and exit code.
 */
const commandProcessor: ToolProcessor = {
  toolNames: [COMMAND],
  summarize: (call) => {
    const view = viewOf(call);
    return view.processor.summarize(view.call);
  },
  describeFailure: (call) => {
    const view = viewOf(call);
    const describe = view.processor.describeFailure ?? shellCommand.describeFailure;
    return describe === undefined ? `${COMMAND} failed` : describe(view.call);
  },
  details: (call) => {
    const view = viewOf(call);
    return commandOutputDetails({ ...call, input: { command: inputText(view.call, 'command') ?? '' } });
  },
};

const VERBS: Record<string, string> = { add: 'Created', update: 'Updated', delete: 'Deleted' };

/** The changed files of a `file_change` call: path (shown relative to the cwd) and kind. */
function changesOf(call: ToolCallView): Array<{ path: string; name: string; kind: string }> {
  return (arrayField(call.input, 'changes') ?? []).flatMap((change) => {
    const path = stringField(change, 'path');
    if (path === undefined) return [];
    return [{ path, name: displayPath(path, call.cwd), kind: stringField(change, 'kind') ?? 'update' }];
  });
}

const MAX_NAMES_LENGTH = 80;

/**
 * Codex's patches: "Created hello.txt", "Updated a.ts", "Changed 3 files", with the changed files as
 * details. Codex 0.171.0 reports no diff, so none is shown.
 */
const fileChangeProcessor: ToolProcessor = {
  toolNames: [FILE_CHANGE],
  summarize: (call) => {
    const changes = changesOf(call);
    const [only] = changes;
    if (only !== undefined && changes.length === 1) return `${VERBS[only.kind] ?? 'Changed'} ${only.name}`;
    return changes.length === 0 ? 'Changed files' : `Changed ${countOf(changes.length, 'file')}`;
  },
  describeFailure: (call) => {
    const names = changesOf(call).map((change) => change.name);
    const subject = names.length === 0 ? undefined : truncate(names.join(', '), MAX_NAMES_LENGTH);
    // The result lists the files, not why the patch failed: there is no reason to show.
    return failureSummary(
      'Patch',
      { ...call, output: '' },
      subject === undefined ? undefined : { name: subject, path: subject },
    );
  },
  details: (call): ToolDetails | undefined => {
    const changes = changesOf(call);
    return changes.length === 0
      ? undefined
      : { type: 'fileList', files: changes.map((change) => change.name) };
  },
};

const MAX_QUERY_LENGTH = 60;

/** Codex's built-in web search: "Searched the web for \"…\"". */
const webSearchProcessor = defineToolProcessor({
  toolNames: ['web_search'],
  label: 'Web search',
  summarize: (call) => {
    const query = inputText(call, 'query');
    return query === undefined
      ? 'Searched the web'
      : `Searched the web for "${truncate(query, MAX_QUERY_LENGTH)}"`;
  },
});

/** The items of Codex CLI's `exec --json` output, as `@cairn/agent-cli/codex` names them. */
export const codexToolProcessors: readonly ToolProcessor[] = [
  commandProcessor,
  fileChangeProcessor,
  webSearchProcessor,
  createTodoListProcessor(['todo_list']),
];
