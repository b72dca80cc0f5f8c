import { resolve } from 'node:path';
import type { AgentCliToolDialect } from './agent-cli-scenarios.js';

/** The tool names of a CLI whose file tools take an absolute `file_path`. */
export interface FilePathToolNames {
  write: string;
  edit: string;
  read: string;
  shell: string;
}

/**
 * The dialect Claude Code, Gemini CLI and Qwen Code share: `{file_path, content}` writes,
 * `{file_path, old_string, new_string}` edits and `{file_path}` reads with the path made absolute,
 * `{command}` shell calls, under each CLI's own tool names. `editInstruction` is the extra field
 * Gemini CLI's `replace` requires; `describeShell` adds the `description` a shell call may carry.
 */
export function filePathToolDialect(
  names: FilePathToolNames,
  options: { editInstruction?: string; describeShell?: boolean } = {},
): AgentCliToolDialect {
  return {
    toolCall(action, cwd) {
      switch (action.kind) {
        case 'write':
          return {
            name: names.write,
            arguments: { file_path: resolve(cwd, action.path), content: action.content },
          };
        case 'edit':
          return {
            name: names.edit,
            arguments: {
              file_path: resolve(cwd, action.path),
              ...(options.editInstruction === undefined ? {} : { instruction: options.editInstruction }),
              old_string: action.oldText,
              new_string: action.newText,
            },
          };
        case 'shell':
          return {
            name: names.shell,
            arguments: options.describeShell
              ? { command: action.command, description: `Run ${action.command}` }
              : { command: action.command },
          };
        case 'read':
          return { name: names.read, arguments: { file_path: resolve(cwd, action.path) } };
        case 'native':
          return { name: action.name, arguments: action.input };
      }
    },
  };
}
