import { describe, expect, it } from 'vitest';
import { createToolProcessorRegistry } from './create-tool-processor-registry.js';
import { REAL_FIXTURE_CWD, toolCall } from './test-support.js';

const CWD = REAL_FIXTURE_CWD;
const registry = createToolProcessorRegistry();
const describeCall = (...args: Parameters<typeof toolCall>) =>
  registry.describe({ ...toolCall(...args), cwd: CWD });

// The calls of fixtures/real/qwen-code/main.jsonl (agent-cli), through the built-in registry.
describe('Qwen Code tools on the captured session', () => {
  it('describes edit as an update with the replaced text as a diff', () => {
    const input = { file_path: `${CWD}/hello.txt`, old_string: 'Hello, world!', new_string: 'Hello, Cairn!' };
    expect(describeCall('edit', input)).toMatchObject({
      summary: 'Updated hello.txt',
      details: {
        type: 'diff',
        filePath: `${CWD}/hello.txt`,
        oldContent: 'Hello, world!',
        newContent: 'Hello, Cairn!',
      },
    });
  });

  it('describes the tools it shares with Gemini CLI', () => {
    expect(
      describeCall('write_file', { file_path: `${CWD}/hello.txt`, content: 'Hello, world!\n' }).summary,
    ).toBe('Created hello.txt');
    expect(describeCall('run_shell_command', { command: 'ls -la' }).summary).toBe('Ran `ls -la`');
    const missing = `${CWD}/does-not-exist.txt`;
    expect(
      describeCall(
        'read_file',
        { file_path: missing },
        { isError: true, output: `File not found: ${missing}` },
      ).summary,
    ).toBe('Read does-not-exist.txt — failed: File not found');
  });

  it('describes todo_write', () => {
    const todos = [{ id: '1', content: 'write', status: 'pending' }];
    expect(describeCall('todo_write', { todos }).summary).toBe('Updated todos (1): 1 pending');
  });
});
