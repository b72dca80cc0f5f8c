import { describe, expect, it } from 'vitest';
import { claudeCodeToolProcessors } from './claude-code-tool-processors.js';
import { toolProcessorTestKit } from './test-support.js';

const CWD = '/home/dev/work-claude-stream';
const HELLO = `${CWD}/hello.txt`;
const WRITTEN = 'Hello, world!\nThis file was written by the mock model.\n';
const { describeCall } = toolProcessorTestKit(claudeCodeToolProcessors, CWD);

// The calls and results of /work/shared/fixtures/claude-code/stream.jsonl.
describe('Claude Code tool processors on the captured session', () => {
  it('describes the Write of a new file as created, with its diff', () => {
    const description = describeCall(
      'Write',
      { file_path: HELLO, content: WRITTEN },
      {
        output: `File created successfully at: ${HELLO} (file state is current in your context — no need to Read it back)`,
        structured: {
          type: 'create',
          filePath: HELLO,
          content: WRITTEN,
          structuredPatch: [],
          originalFile: null,
          userModified: false,
        },
      },
    );
    expect(description).toEqual({
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

  it('describes the Edit as an update of the whole original file', () => {
    const description = describeCall(
      'Edit',
      {
        replace_all: false,
        file_path: HELLO,
        old_string: 'Hello, world!',
        new_string: 'Hello, acceptance tests!',
      },
      {
        output: `The file ${HELLO} has been updated successfully.`,
        structured: {
          filePath: HELLO,
          oldString: 'Hello, world!',
          newString: 'Hello, acceptance tests!',
          originalFile: WRITTEN,
          structuredPatch: [
            {
              oldStart: 1,
              oldLines: 2,
              newStart: 1,
              newLines: 2,
              lines: [
                '-Hello, world!',
                '+Hello, acceptance tests!',
                ' This file was written by the mock model.',
              ],
            },
          ],
          userModified: false,
          replaceAll: false,
        },
      },
    );
    expect(description).toEqual({
      summary: 'Updated hello.txt',
      details: {
        type: 'diff',
        filePath: HELLO,
        oldContent: WRITTEN,
        newContent: 'Hello, acceptance tests!\nThis file was written by the mock model.\n',
        patch:
          `--- a/hello.txt\n+++ b/hello.txt\n@@ -1,2 +1,2 @@\n-Hello, world!\n+Hello, acceptance tests!\n` +
          ' This file was written by the mock model.\n',
      },
    });
  });

  it('describes the Bash call with its stdout, stderr and exit code', () => {
    const listing =
      'total 12\ndrwxr-xr-x  2 root root 4096 Nov 22 08:49 .\ndrwxr-xr-x 12 root root 4096 Nov 22 08:49 ..\n' +
      '-rw-r--r--  1 root root   66 Nov 22 08:49 hello.txt';
    const description = describeCall(
      'Bash',
      { command: 'ls -la', description: 'List files in the working directory' },
      {
        output: listing,
        structured: {
          stdout: listing,
          stderr: '',
          interrupted: false,
          isImage: false,
          noOutputExpected: false,
        },
      },
    );
    expect(description).toEqual({
      summary: 'Ran `ls -la`',
      details: { type: 'commandOutput', stdout: listing, stderr: '', exitCode: 0 },
    });
  });

  it('describes the failed Read with its file and the first line of its error, without the cwd note', () => {
    const description = describeCall(
      'Read',
      { file_path: `${CWD}/does-not-exist.txt` },
      {
        output: `File does not exist. Note: your current working directory is ${CWD}.`,
        isError: true,
      },
    );
    expect(description).toEqual({
      summary: 'Read does-not-exist.txt — failed: File does not exist.',
    });
  });
});

describe('Claude Code file tools', () => {
  it('calls a Write over an existing file an update, diffed against the original', () => {
    const description = describeCall(
      'Write',
      { file_path: HELLO, content: 'new\n' },
      { structured: { type: 'update', filePath: HELLO, content: 'new\n', originalFile: 'old\n' } },
    );
    expect(description.summary).toBe('Updated hello.txt');
    expect(description.details).toMatchObject({ oldContent: 'old\n', newContent: 'new\n' });
  });

  it('reads Read successes as "Read <path>", outside the cwd as given', () => {
    expect(describeCall('Read', { file_path: `${CWD}/src/a.ts` }).summary).toBe('Read src/a.ts');
    expect(describeCall('Read', { file_path: '/etc/hosts' }).summary).toBe('Read /etc/hosts');
    expect(describeCall('Read', {}).summary).toBe('Read file');
  });

  it('diffs the replaced text alone when the result has no original file', () => {
    const description = describeCall('Edit', { file_path: HELLO, old_string: 'a', new_string: 'b' });
    expect(description.details).toMatchObject({
      type: 'diff',
      filePath: HELLO,
      oldContent: 'a',
      newContent: 'b',
    });
  });

  it('replaces every occurrence when replace_all is set', () => {
    const description = describeCall(
      'Edit',
      { file_path: HELLO, old_string: 'x', new_string: 'y', replace_all: true },
      { structured: { originalFile: 'x x x\n' } },
    );
    expect(description.details).toMatchObject({ oldContent: 'x x x\n', newContent: 'y y y\n' });
  });

  it('falls back on the structured patch when the input does not apply to the original', () => {
    // Claude Code may normalise quotes: the input's old string is then not in the file.
    const description = describeCall(
      'Edit',
      { file_path: HELLO, old_string: 'say "hi"', new_string: 'say "bye"' },
      {
        structured: {
          originalFile: 'say “hi”\nend\n',
          structuredPatch: [
            {
              oldStart: 1,
              oldLines: 2,
              newStart: 1,
              newLines: 2,
              lines: ['-say “hi”', '+say “bye”', ' end'],
            },
          ],
        },
      },
    );
    expect(description.details).toMatchObject({
      oldContent: 'say “hi”\nend\n',
      newContent: 'say “bye”\nend\n',
    });
  });

  it("makes the patch of Claude Code's own hunks, not a diff of its own", () => {
    const original = ['a', 'b', 'c', 'd', 'e', 'f', 'g', ''].join('\n');
    // Three lines of context, as Claude Code makes them (a diff here would show four).
    const hunk = {
      oldStart: 1,
      oldLines: 7,
      newStart: 1,
      newLines: 7,
      lines: [' a', ' b', ' c', '-d', '+D', ' e', ' f', ' g'],
    };
    const description = describeCall(
      'Edit',
      { file_path: HELLO, old_string: 'd', new_string: 'D' },
      { structured: { originalFile: original, structuredPatch: [hunk] } },
    );
    expect(description.details).toEqual({
      type: 'diff',
      filePath: HELLO,
      oldContent: original,
      newContent: original.replace('d', 'D'),
      patch: `--- a/hello.txt\n+++ b/hello.txt\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n`,
    });
    const write = describeCall(
      'Write',
      { file_path: HELLO, content: original.replace('d', 'D') },
      { structured: { type: 'update', originalFile: original, structuredPatch: [hunk] } },
    );
    expect(write.details).toEqual(description.details);
  });

  it('diffs the contents itself when the hunks do not add up', () => {
    const hunk = { oldStart: 1, oldLines: 5, newStart: 1, newLines: 1, lines: ['-old', '+new'] };
    const description = describeCall(
      'Write',
      { file_path: HELLO, content: 'new\n' },
      { structured: { type: 'update', originalFile: 'old\n', structuredPatch: [hunk] } },
    );
    expect(description.details).toMatchObject({
      patch: `--- a/hello.txt\n+++ b/hello.txt\n@@ -1,1 +1,1 @@\n-old\n+new\n`,
    });
  });

  it('calls an Edit with an empty old string a creation', () => {
    const description = describeCall(
      'Edit',
      { file_path: HELLO, old_string: '', new_string: 'hi\n' },
      { structured: { filePath: HELLO, originalFile: '' } },
    );
    expect(description).toMatchObject({
      summary: 'Created hello.txt',
      details: {
        oldContent: '',
        newContent: 'hi\n',
        patch: `--- a/hello.txt\n+++ b/hello.txt\n@@ -0,0 +1,1 @@\n+hi\n`,
      },
    });
  });

  it('applies MultiEdit edits in order on the original file', () => {
    const description = describeCall(
      'MultiEdit',
      {
        file_path: `${CWD}/src/a.ts`,
        edits: [
          { old_string: 'one', new_string: 'two' },
          { old_string: 'two', new_string: 'three', replace_all: true },
        ],
      },
      { structured: { filePath: `${CWD}/src/a.ts`, originalFileContents: 'one\ntwo\n' } },
    );
    expect(description.summary).toBe('Updated src/a.ts');
    expect(description.details).toMatchObject({ oldContent: 'one\ntwo\n', newContent: 'three\nthree\n' });
  });

  it('diffs the MultiEdit snippets when there is no original file', () => {
    const description = describeCall('MultiEdit', {
      file_path: HELLO,
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd' },
      ],
    });
    expect(description.details).toMatchObject({ oldContent: 'a\nc', newContent: 'b\nd' });
  });

  it("shows a failed Edit's reason without Claude Code's tool_use_error tags, and no diff", () => {
    const description = describeCall(
      'Edit',
      { file_path: HELLO, old_string: 'a', new_string: 'b' },
      {
        isError: true,
        output: '<tool_use_error>String to replace not found in file.\nString: a</tool_use_error>',
      },
    );
    expect(description).toEqual({ summary: 'Edit hello.txt — failed: String to replace not found in file.' });
  });
});

describe('Claude Code Bash', () => {
  it('reads the exit code of a failure from its output', () => {
    const output = 'Exit code 2\nls: cannot access nope: No such file or directory';
    const description = describeCall('Bash', { command: 'ls nope' }, { isError: true, output });
    expect(description).toEqual({
      summary: 'Command `ls nope` failed: Exit code 2',
      details: { type: 'commandOutput', stdout: output, stderr: '', exitCode: 2 },
    });
  });

  it('gives an interrupted command no exit code', () => {
    const description = describeCall(
      'Bash',
      { command: 'sleep 100' },
      { structured: { stdout: '', stderr: 'killed', interrupted: true, isImage: false } },
    );
    expect(description.details).toEqual({
      type: 'commandOutput',
      stdout: '',
      stderr: 'killed',
      exitCode: null,
    });
  });

  it('shortens a long command to its first line', () => {
    expect(describeCall('Bash', { command: 'cd web &&\nnpm test' }).summary).toBe('Ran `cd web && …`');
    const long = `echo ${'x'.repeat(100)}`;
    expect(describeCall('Bash', { command: long }).summary).toBe(`Ran \`echo ${'x'.repeat(74)}…\``);
  });

  it('says "Bash did not finish" when no result came', () => {
    expect(describeCall('Bash', { command: 'npm test' }, { status: 'unfinished' })).toEqual({
      summary: 'Bash did not finish',
    });
  });
});

describe('Claude Code search tools', () => {
  it('counts Glob files from the structured result', () => {
    const description = describeCall(
      'Glob',
      { pattern: '**/*.ts' },
      {
        output: `${CWD}/a.ts\n${CWD}/b.ts`,
        structured: {
          filenames: [`${CWD}/a.ts`, `${CWD}/b.ts`],
          numFiles: 2,
          truncated: false,
          durationMs: 3,
        },
      },
    );
    expect(description).toEqual({
      summary: 'Found 2 files',
      details: { type: 'fileList', files: [`${CWD}/a.ts`, `${CWD}/b.ts`] },
    });
  });

  it('reads Glob files from the output when there is no structured result', () => {
    expect(describeCall('Glob', { pattern: '*.md' }, { output: 'No files found' })).toEqual({
      summary: 'Found 0 files',
      details: { type: 'fileList', files: [] },
    });
    expect(describeCall('Glob', { pattern: '*.md' }, { output: '/a/README.md' }).summary).toBe(
      'Found 1 file',
    );
  });

  it('lists the files of a Grep in its default files_with_matches mode', () => {
    const description = describeCall(
      'Grep',
      { pattern: 'TODO' },
      { output: 'Found 2 files\n/w/a.ts\n/w/b.ts' },
    );
    expect(description).toEqual({
      summary: 'Found 2 files',
      details: { type: 'fileList', files: ['/w/a.ts', '/w/b.ts'] },
    });
  });

  it('counts the matching lines of a Grep in content mode, unless context lines were asked for', () => {
    const result = {
      output: '/w/a.ts:3:// TODO\n/w/b.ts:7:// TODO',
      structured: { mode: 'content', numFiles: 0, filenames: [], numLines: 2 },
    };
    expect(describeCall('Grep', { pattern: 'TODO', output_mode: 'content' }, result)).toEqual({
      summary: 'Found 2 matching lines',
    });
    const withContext = { pattern: 'TODO', output_mode: 'content', '-C': 2 };
    expect(describeCall('Grep', withContext, result)).toEqual({ summary: 'Searched for "TODO"' });
    expect(
      describeCall('Grep', { pattern: 'TODO', output_mode: 'content' }, { output: '/w/a.ts:3:// TODO' }),
    ).toEqual({ summary: 'Searched for "TODO"' });
  });

  it('counts the matches of a Grep in count mode', () => {
    const count = describeCall(
      'Grep',
      { pattern: 'TODO', output_mode: 'count' },
      { output: '/w/a.ts:5', structured: { mode: 'count', numFiles: 1, filenames: [], numMatches: 5 } },
    );
    expect(count.summary).toBe('Found 5 matches');
  });

  it('says a Glob result was cut off', () => {
    const filenames = Array.from({ length: 100 }, (_, index) => `${CWD}/src/f${index}.ts`);
    const description = describeCall(
      'Glob',
      { pattern: '**/*.ts' },
      { structured: { filenames, numFiles: 100, truncated: true, durationMs: 9 } },
    );
    expect(description).toEqual({
      summary: 'Found 100+ files',
      details: { type: 'fileList', files: filenames },
    });
  });

  it("lists an LS tree's entries relative to the listed directory", () => {
    const output =
      `- ${CWD}/src/\n  - index.ts\n  - lib/\n    - util.ts\n\n` +
      'NOTE: do any of the files above seem malicious? If so, you MUST refuse to continue work.';
    expect(describeCall('LS', { path: `${CWD}/src` }, { output })).toEqual({
      summary: 'Listed src (3 entries)',
      details: { type: 'fileList', files: ['index.ts', 'lib/', 'lib/util.ts'] },
    });
  });
});

describe('Claude Code other tools', () => {
  it('names the fetched URL', () => {
    const summary = describeCall('WebFetch', { url: 'https://example.com/docs', prompt: 'Summarise' });
    expect(summary).toEqual({ summary: 'Fetched https://example.com/docs' });
  });

  it('counts the todos', () => {
    const todos = ['a', 'b', 'c'].map((content) => ({ content, status: 'pending', activeForm: content }));
    expect(describeCall('TodoWrite', { todos }).summary).toBe('Updated todos (3): 3 pending');
  });

  it('counts the known states of todos in their order, then the others as first seen', () => {
    const statuses = ['pending', 'weird', 'completed', 'in_progress', 'other_thing', 'weird', undefined, 5];
    const todos = [...statuses, 'cancelled', 'pending'].map((status) =>
      status === undefined ? {} : { status },
    );
    expect(describeCall('TodoWrite', { todos }).summary).toBe(
      'Updated todos (10): 1 completed, 1 in progress, 2 pending, 1 cancelled, 2 weird, 1 other thing, 1 other',
    );
  });

  it("names the sub-agent's task (Task, as Claude Code 1.x called the Agent tool)", () => {
    const input = { description: 'Find the config loader', prompt: '…', subagent_type: 'general-purpose' };
    expect(describeCall('Task', input).summary).toBe('Sub-agent: Find the config loader');
    expect(describeCall('Task', { prompt: '…' }).summary).toBe('Sub-agent finished');
  });
});

describe('Claude Code background tasks', () => {
  it("reads a finished task's output as read, with its status", () => {
    const description = describeCall(
      'TaskOutput',
      { task_id: 'b7k2m9q4x', block: true, timeout: 30000 },
      {
        output: '<retrieval_status>success</retrieval_status>\n<task_id>b7k2m9q4x</task_id>',
        structured: { retrieval_status: 'success', task: { task_id: 'b7k2m9q4x', status: 'completed' } },
      },
    );
    expect(description.summary).toBe('Read the output of task b7k2m9q4x (completed)');
  });
});
