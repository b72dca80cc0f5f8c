import { describe, expect, it } from 'vitest';
import { cairnToolProcessors } from './cairn-tool-processors.js';
import { claudeCodeToolProcessors } from './claude-code-tool-processors.js';
import { createToolProcessorRegistry } from './create-tool-processor-registry.js';
import { geminiCliToolProcessors } from './gemini-cli-tool-processors.js';
import type { ToolProcessor } from './tool-call-view.js';

const BUILT_IN_NAMES = {
  claudeCode: [
    'Edit',
    'MultiEdit',
    'Write',
    'Read',
    'Bash',
    'Glob',
    'Grep',
    'LS',
    'WebFetch',
    'TodoWrite',
    'Agent',
    'Task',
    'TaskCreate',
    'TaskGet',
    'TaskList',
    'TaskUpdate',
    'TaskOutput',
    'TaskStop',
    'KillShell',
  ],
  geminiCli: [
    'replace',
    'write_file',
    'read_file',
    'read_many_files',
    'run_shell_command',
    'glob',
    'search_file_content',
    'list_directory',
    'web_fetch',
  ],
  cairn: ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'run_command'],
};

describe('createToolProcessorRegistry', () => {
  it("registers Claude Code's, Gemini CLI's and Cairn's tools by default", () => {
    const registry = createToolProcessorRegistry();
    for (const name of Object.values(BUILT_IN_NAMES).flat()) expect(registry.get(name), name).toBeDefined();
  });

  it('exports each set with the tools it covers', () => {
    const names = (processors: readonly ToolProcessor[]) => processors.flatMap((p) => p.toolNames);
    expect(names(claudeCodeToolProcessors)).toEqual(BUILT_IN_NAMES.claudeCode);
    expect(names(geminiCliToolProcessors)).toEqual(
      expect.arrayContaining([...BUILT_IN_NAMES.geminiCli, 'grep_search', 'write_todos']),
    );
    expect(names(cairnToolProcessors).sort()).toEqual([...BUILT_IN_NAMES.cairn].sort());
  });

  it('can start empty', () => {
    expect(createToolProcessorRegistry({ builtIns: false }).get('Bash')).toBeUndefined();
  });

  it('registers the given processors after the built-ins', () => {
    const bash: ToolProcessor = { toolNames: ['Bash', 'deploy'], summarize: () => 'Ran it' };
    const registry = createToolProcessorRegistry({ processors: [bash] });
    expect(registry.get('Bash')).toBe(bash);
    expect(registry.get('deploy')).toBe(bash);
    expect(registry.get('Edit')).toBeDefined();
  });
});
