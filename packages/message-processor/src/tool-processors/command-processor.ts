import { commandOutputDetails, persistedOutputOf } from './command-output.js';
import { defineToolProcessor } from './define-tool-processor.js';
import { stringField } from './json-fields.js';
import { firstLine, hasSeveralLines, truncate } from './summary-text.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { inputText } from './tool-input.js';

const MAX_COMMAND_LENGTH = 80;

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The command in backticks, shortened to its first line: "`npm test`", "`cd web && …`". */
function shownCommand(call: ToolCallView): string | undefined {
  const command = inputText(call, 'command');
  const first = command === undefined ? '' : firstLine(command);
  if (command === undefined || first === '') return undefined;
  const line = hasSeveralLines(command) ? `${first} …` : first;
  return `\`${truncate(line, MAX_COMMAND_LENGTH)}\``;
}

/** Shell commands: "Ran `ls -la`", failing as "Command `ls -la` failed: Exit code 2"; with their output. */
export function createCommandProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: (call) => {
      const command = shownCommand(call);
      return command === undefined ? 'Command' : `Command ${command}`;
    },
    summarize: (call) => {
      const command = shownCommand(call);
      // Claude Code's `run_in_background`: the command was started, not run to its end.
      const background = stringField(call.structured, 'backgroundTaskId');
      if (background !== undefined)
        return `Started ${command ?? 'a command'} in the background (task ${background})`;
      const ran = command === undefined ? 'Ran a command' : `Ran ${command}`;
      const persisted = persistedOutputOf(call);
      // Claude Code cut the output: say so, and where the whole of it is (the details give the full path).
      return persisted === undefined
        ? ran
        : `${ran} (output cut; full output in ${baseName(persisted.path)})`;
    },
    details: commandOutputDetails,
  });
}
