import { describe, expect, it } from 'vitest';
import { codexShellCommand, simpleCommandWords } from './codex-shell-command.js';
import { codexToolProcessors } from './codex-tool-processors.js';
import { createToolProcessorRegistry } from './create-tool-processor-registry.js';
import { REAL_FIXTURE_CWD, toolProcessorTestKit } from './test-support.js';

const CWD = REAL_FIXTURE_CWD;
const { describeCall } = toolProcessorTestKit(codexToolProcessors, CWD);
// The shell line Codex reports for a command.
const shell = (command: string) => ({ command: `/bin/bash -lc '${command.replaceAll("'", "'\\''")}'` });

// The calls and results of fixtures/real/codex/main.jsonl (agent-cli), as its converter makes them.
describe('Codex tool processors on the captured session', () => {
  it('describes the added and the updated file', () => {
    const add = { changes: [{ path: `${CWD}/hello.txt`, kind: 'add' }] };
    expect(describeCall('file_change', add, { output: `add ${CWD}/hello.txt` })).toEqual({
      summary: 'Created hello.txt',
      details: { type: 'fileList', files: ['hello.txt'] },
    });
    const update = { changes: [{ path: `${CWD}/hello.txt`, kind: 'update' }] };
    expect(describeCall('file_change', update).summary).toBe('Updated hello.txt');
  });

  it('describes ls -la as a command (its lines are not entries), with the output and exit code', () => {
    const output = 'total 12\n-rw-r--r-- 1 root root   27 Nov 26 20:04 hello.txt\n';
    expect(
      describeCall('command_execution', shell('ls -la'), {
        output,
        structured: { exit_code: 0, status: 'completed' },
      }),
    ).toEqual({
      summary: 'Ran `ls -la`',
      details: { type: 'commandOutput', stdout: output, stderr: '', exitCode: 0 },
    });
  });

  it('describes the failed cat of a missing file as a failed read, naming the file', () => {
    const output = 'cat: does-not-exist.txt: No such file or directory\n';
    expect(
      describeCall('command_execution', shell('cat does-not-exist.txt'), {
        output,
        isError: true,
        structured: { exit_code: 1, status: 'failed' },
      }),
    ).toEqual({
      summary: 'Read does-not-exist.txt — failed: cat: does-not-exist.txt: No such file or directory',
      details: { type: 'commandOutput', stdout: output, stderr: '', exitCode: 1 },
    });
  });
});

describe('Codex tool processors', () => {
  it('shows other commands without the shell wrapper', () => {
    expect(describeCall('command_execution', shell('npm test && echo ok')).summary).toBe(
      'Ran `npm test && echo ok`',
    );
    expect(describeCall('command_execution', shell("echo 'hi'")).summary).toBe("Ran `echo 'hi'`");
    expect(describeCall('command_execution', shell('ls src')).summary).toBe('Listed src (0 entries)');
    expect(describeCall('command_execution', { command: 'pwd' }).summary).toBe('Ran `pwd`');
  });

  it('reads sed -n and head as file reads, and rg as a search', () => {
    expect(describeCall('command_execution', shell("sed -n '1,80p' src/a.ts")).summary).toBe('Read src/a.ts');
    expect(describeCall('command_execution', shell('head -n 5 README.md')).summary).toBe('Read README.md');
    expect(describeCall('command_execution', shell('rg -n "TODO" src')).summary).toBe('Searched for "TODO"');
    // sed without -n edits a stream: a plain command.
    expect(describeCall('command_execution', shell("sed 's/a/b/' x")).summary).toBe("Ran `sed 's/a/b/' x`");
  });

  it('counts several changed files and names them on failure', () => {
    const changes = [
      { path: `${CWD}/a.ts`, kind: 'update' },
      { path: `${CWD}/b.ts`, kind: 'delete' },
    ];
    expect(describeCall('file_change', { changes }).summary).toBe('Changed 2 files');
    expect(
      describeCall('file_change', { changes }, { isError: true, output: `update ${CWD}/a.ts` }).summary,
    ).toBe('Patch a.ts, b.ts — failed');
  });

  it('describes web searches and todo lists', () => {
    expect(describeCall('web_search', { query: 'cairn agents' }).summary).toBe(
      'Searched the web for "cairn agents"',
    );
    const todos = [
      { content: 'write', status: 'completed' },
      { content: 'test', status: 'pending' },
    ];
    expect(describeCall('todo_list', { todos }).summary).toBe('Updated todos (2): 1 completed, 1 pending');
  });

  it('is registered with the built-ins', () => {
    const registry = createToolProcessorRegistry();
    expect(
      registry.describe({
        toolName: 'file_change',
        toolUseId: 'c',
        input: { changes: [{ path: 'x', kind: 'add' }] },
        output: '',
        isError: false,
        status: 'completed',
      }).summary,
    ).toBe('Created x');
  });
});

describe('codexShellCommand and simpleCommandWords', () => {
  it('unwraps the login shell line Codex reports', () => {
    expect(codexShellCommand("/bin/bash -lc 'ls -la'")).toBe('ls -la');
    expect(codexShellCommand("/bin/zsh -lc 'echo '\\''x'\\'''")).toBe("echo 'x'");
    expect(codexShellCommand('ls -la')).toBe('ls -la');
  });

  it('splits simple commands and refuses shell syntax', () => {
    expect(simpleCommandWords(`rg -n "a b" 'c'd`)).toEqual(['rg', '-n', 'a b', 'cd']);
    expect(simpleCommandWords('cat a | head')).toBeUndefined();
    expect(simpleCommandWords('cat "$HOME"')).toBeUndefined();
    expect(simpleCommandWords("cat 'unclosed")).toBeUndefined();
  });
});
