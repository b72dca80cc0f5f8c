import { describe, expect, it } from 'vitest';
import { geminiCliToolProcessors } from './gemini-cli-tool-processors.js';
import { toolProcessorTestKit } from './test-support.js';

const CWD = '/home/dev/work-gemini-stream';
const HELLO = `${CWD}/hello.txt`;
const WRITTEN = 'Hello, world!\nThis file was written by the mock model.\n';
const { describeCall } = toolProcessorTestKit(geminiCliToolProcessors, CWD);

// The calls and results of /work/shared/fixtures/gemini-cli/stream.jsonl, as the converter makes them.
describe('Gemini CLI tool processors on the captured session', () => {
  it('describes write_file as created (the result does not say otherwise), with its diff', () => {
    expect(describeCall('write_file', { file_path: HELLO, content: WRITTEN })).toEqual({
      summary: 'Created hello.txt',
      details: {
        type: 'diff',
        filePath: HELLO,
        oldContent: '',
        newContent: WRITTEN,
        patch: `--- a/hello.txt\n+++ b/hello.txt\n@@ -0,0 +1,2 @@\n+Hello, world!\n+This file was written by the mock model.\n`,
      },
    });
  });

  it('describes replace as an update diffing the replaced text', () => {
    const input = {
      file_path: HELLO,
      instruction: 'Change the greeting to address the acceptance tests.',
      old_string: 'Hello, world!',
      new_string: 'Hello, acceptance tests!',
    };
    expect(describeCall('replace', input)).toEqual({
      summary: 'Updated hello.txt',
      details: {
        type: 'diff',
        filePath: HELLO,
        oldContent: 'Hello, world!',
        newContent: 'Hello, acceptance tests!',
        patch: `--- a/hello.txt\n+++ b/hello.txt\n@@ -1,1 +1,1 @@\n-Hello, world!\n+Hello, acceptance tests!\n`,
      },
    });
  });

  it('describes run_shell_command with its output as stdout', () => {
    const listing =
      'total 12\ndrwxr-xr-x  2 root root 4096 Nov 22 08:51 .\ndrwxr-xr-x 20 root root 4096 Nov 22 08:50 ..\n' +
      '-rw-r--r--  1 root root   66 Nov 22 08:51 hello.txt';
    const description = describeCall(
      'run_shell_command',
      { command: 'ls -la', description: 'List files in the working directory' },
      { output: listing, structured: { output: listing } },
    );
    expect(description).toEqual({
      summary: 'Ran `ls -la`',
      details: { type: 'commandOutput', stdout: listing, stderr: '', exitCode: 0 },
    });
  });

  it("describes the failed read_file with its file and the error's message, which need not name it again", () => {
    const message = `File not found: ${CWD}/does-not-exist.txt`;
    const description = describeCall(
      'read_file',
      { file_path: `${CWD}/does-not-exist.txt` },
      {
        isError: true,
        output: message,
        structured: { output: 'File not found.', error: { type: 'file_not_found', message } },
      },
    );
    expect(description).toEqual({ summary: 'Read does-not-exist.txt — failed: File not found' });
  });
});

describe('Gemini CLI tools', () => {
  it('calls write_file over an existing file an update', () => {
    const output = `Successfully overwrote file: ${HELLO}. Here is the updated code:\n...`;
    expect(describeCall('write_file', { file_path: HELLO, content: 'x' }, { output }).summary).toBe(
      'Updated hello.txt',
    );
  });

  it('is not fooled by "overwritten" elsewhere in the output', () => {
    const notes = `${CWD}/overwritten-notes.md`;
    const output = `Successfully created and wrote to new file: ${notes}. Here is the updated code:\nOverwrote it`;
    expect(describeCall('write_file', { file_path: notes, content: 'x' }, { output }).summary).toBe(
      'Created overwritten-notes.md',
    );
  });

  it('calls replace with an empty old_string a creation', () => {
    const input = { file_path: HELLO, old_string: '', new_string: 'Hello!\n' };
    const output = `Created new file: ${HELLO} with provided content.`;
    expect(describeCall('replace', input, { output })).toEqual({
      summary: 'Created hello.txt',
      details: {
        type: 'diff',
        filePath: HELLO,
        oldContent: '',
        newContent: 'Hello!\n',
        patch: `--- a/hello.txt\n+++ b/hello.txt\n@@ -0,0 +1,1 @@\n+Hello!\n`,
      },
    });
  });

  it('takes the structured error message when the output is empty', () => {
    const description = describeCall(
      'replace',
      { file_path: HELLO },
      { isError: true, structured: { error: { message: 'No match\nfor x' } } },
    );
    expect(description).toEqual({ summary: 'Edit hello.txt — failed: No match' });
  });

  it('reads the exit code of a failed command', () => {
    const output = 'Command: false\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1';
    const description = describeCall('run_shell_command', { command: 'false' }, { isError: true, output });
    expect(description.details).toEqual({ type: 'commandOutput', stdout: output, stderr: '', exitCode: 1 });
  });

  it('reads the exit code of a command that exited non-zero, which Gemini CLI reports as a success', () => {
    const exitCode = (output: string) =>
      (describeCall('run_shell_command', { command: 'make' }, { output }).details as { exitCode: unknown })
        .exitCode;
    expect(
      exitCode('Output: Exit Code: 9\nmake: *** [all] Error 2\nExit Code: 2\nProcess Group PGID: 41'),
    ).toBe(2);
    expect(exitCode('Command exited with code: 3')).toBe(3);
    expect(exitCode('Output: built\nProcess Group PGID: 41')).toBe(0);
    expect(exitCode('Output: (empty)\nSignal: 15')).toBeNull();
    expect(exitCode('Command: ls\nOutput: a\nError: (none)\nExit Code: (none)\nSignal: (none)')).toBe(0);
  });

  it('counts glob files from the header, which counts those cut off too', () => {
    const output =
      'Found 3 file(s) matching "*.ts" within /w, sorted by modification time (newest first):\n---\n/w/a.ts\n/w/b.ts\n---\n[1 file truncated] ...';
    expect(describeCall('glob', { pattern: '*.ts' }, { output })).toEqual({
      summary: 'Found 3 files',
      details: { type: 'fileList', files: ['/w/a.ts', '/w/b.ts'] },
    });
  });

  it('lists list_directory entries, directories with a slash', () => {
    const output = `Directory listing for ${CWD}/src:\n[DIR] lib\na.ts\nb.ts (120 bytes)`;
    expect(describeCall('list_directory', { dir_path: `${CWD}/src` }, { output })).toEqual({
      summary: 'Listed src (3 entries)',
      details: { type: 'fileList', files: ['lib/', 'a.ts', 'b.ts'] },
    });
    const empty = describeCall('list_directory', { path: CWD }, { output: `Directory ${CWD} is empty.` });
    expect(empty.summary).toBe('Listed . (0 entries)');
  });

  it('counts search_file_content matches and lists the files', () => {
    const output =
      'Found 3 matches for pattern "TODO" in path ".":\n---\nFile: src/a.ts\nL3: // TODO\nL9: // TODO\n---\nFile: src/b.ts\nL1: TODO\n---';
    expect(describeCall('search_file_content', { pattern: 'TODO' }, { output })).toEqual({
      summary: 'Found 3 matches',
      details: { type: 'fileList', files: ['src/a.ts', 'src/b.ts'] },
    });
    const none = describeCall(
      'grep_search',
      { pattern: 'x' },
      { output: 'No matches found for pattern "x" in path ".".' },
    );
    expect(none).toEqual({ summary: 'Found 0 matches' });
  });

  it('counts read_many_files files, else names the patterns', () => {
    const output = 'Successfully read and concatenated content from **2 file(s)**.';
    expect(describeCall('read_many_files', { paths: ['src/*.ts'] }, { output }).summary).toBe('Read 2 files');
    const separated = '--- /w/a.ts ---\na\n--- /w/b.ts ---\nb\n--- End of content ---';
    expect(describeCall('read_many_files', { include: ['*.ts'] }, { output: separated }).summary).toBe(
      'Read 2 files',
    );
    expect(describeCall('read_many_files', { include: ['src/*.ts', 'README.md'] }).summary).toBe(
      'Read src/*.ts, README.md',
    );
  });

  it("names the first URL of web_fetch's prompt", () => {
    const input = { prompt: 'Summarize https://example.com/post and compare it with (https://example.org/)' };
    expect(describeCall('web_fetch', input).summary).toBe('Fetched https://example.com/post');
    expect(describeCall('web_fetch', { prompt: 'no link' }).summary).toBe('Fetched a web page');
  });

  it('counts write_todos todos', () => {
    const todos = [{ description: 'a', status: 'pending' }];
    expect(describeCall('write_todos', { todos }).summary).toBe('Updated todos (1): 1 pending');
  });
});
