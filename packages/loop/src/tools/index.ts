import type { Tool } from '@cairn/core';
import { createEditFileTool } from './edit-file-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createListDirTool } from './list-dir-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createRunCommandTool } from './run-command-tool.js';
import type { WorkspaceToolsOptions } from './workspace-tools-options.js';
import { createWriteFileTool } from './write-file-tool.js';

export { createEditFileTool, type EditFileInput, type EditFileResult } from './edit-file-tool.js';
export { createGlobTool, type GlobInput, type GlobResult } from './glob-tool.js';
export { createGrepTool, type GrepInput } from './grep-tool.js';
export { createListDirTool, type ListDirInput, type ListDirResult } from './list-dir-tool.js';
export { createReadFileTool, type ReadFileInput } from './read-file-tool.js';
export { createRunCommandTool, type RunCommandInput, type RunCommandResult } from './run-command-tool.js';
export { WORKSPACE_TOOL_DEFAULTS, type WorkspaceToolsOptions } from './workspace-tools-options.js';
export { createWriteFileTool, type WriteFileInput, type WriteFileResult } from './write-file-tool.js';

/**
 * The seven workspace tools, all sandboxed to one root (`options.root`, else each call's
 * `projectRoot`): read_file, write_file, edit_file, list_dir, glob, grep and run_command.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions = {}): Tool[] {
  return [
    createReadFileTool(options),
    createWriteFileTool(options),
    createEditFileTool(options),
    createListDirTool(options),
    createGlobTool(options),
    createGrepTool(options),
    createRunCommandTool(options),
  ];
}
