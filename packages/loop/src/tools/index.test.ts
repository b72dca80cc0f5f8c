import { describe, expect, it } from 'vitest';
import { createReadFileTool, createWorkspaceTools, WORKSPACE_TOOL_DEFAULTS } from './index.js';
import { callTool, failureOf } from './test-support.js';

describe('createWorkspaceTools', () => {
  it('makes the seven tools with their categories', () => {
    const tools = createWorkspaceTools({ root: '.' });
    expect(tools.map((tool) => [tool.name, tool.category])).toEqual([
      ['read_file', 'read'],
      ['write_file', 'write'],
      ['edit_file', 'write'],
      ['list_dir', 'read'],
      ['glob', 'read'],
      ['grep', 'read'],
      ['run_command', 'shell'],
    ]);
    expect(tools.filter((tool) => tool.needsApproval === true).map((tool) => tool.name)).toEqual([
      'run_command',
    ]);
  });

  it('has sensible defaults and refuses a limit that is not a positive integer', () => {
    expect(WORKSPACE_TOOL_DEFAULTS).toMatchObject({
      commandTimeoutMs: 120_000,
      grepTimeoutMs: 30_000,
      runCommandNeedsApproval: true,
      inheritSecretEnv: false,
    });
    for (const maxReadLines of [0, -1, 1.5, Number.NaN]) {
      expect(() => createReadFileTool({ maxReadLines })).toThrow(/maxReadLines must be a positive integer/);
    }
  });

  it('refuses every call when there is no workspace', async () => {
    const args: Record<string, object> = {
      read_file: { path: 'a' },
      write_file: { path: 'a', content: '' },
      edit_file: { path: 'a', old_string: 'a', new_string: 'b' },
      list_dir: {},
      glob: { pattern: '*' },
      grep: { pattern: 'a' },
      run_command: { command: 'true' },
    };
    for (const tool of createWorkspaceTools()) {
      const error = await failureOf(callTool(tool, args[tool.name]), 'TOOL_DENIED');
      expect(error.message).toMatch(/no workspace/);
    }
  });
});
