import { describe, expect, it } from 'vitest';
import { cairnToolProcessors } from './cairn-tool-processors.js';
import { geminiCliToolProcessors } from './gemini-cli-tool-processors.js';
import { toolProcessorTestKit } from './test-support.js';
import { ToolProcessorRegistry } from './tool-processor-registry.js';

const { registry, describeCall } = toolProcessorTestKit(cairnToolProcessors, '/repo');

describe('Cairn tool processors', () => {
  it('read the `path` field of file tools', () => {
    expect(describeCall('read_file', { path: '/repo/src/a.ts', offset: 10, limit: 20 }).summary).toBe(
      'Read src/a.ts',
    );
    expect(describeCall('write_file', { path: '/repo/notes.md', content: 'hi\n' })).toMatchObject({
      summary: 'Created notes.md',
      details: { type: 'diff', filePath: '/repo/notes.md', oldContent: '', newContent: 'hi\n' },
    });
    const edit = describeCall('edit_file', { path: 'src/a.ts', old_string: 'let', new_string: 'const' });
    expect(edit).toMatchObject({
      summary: 'Updated src/a.ts',
      details: { type: 'diff', filePath: 'src/a.ts', oldContent: 'let', newContent: 'const' },
    });
  });

  it('lists, globs and greps', () => {
    expect(describeCall('list_dir', { path: '/repo' }, { output: 'package.json\nsrc/' })).toEqual({
      summary: 'Listed . (2 entries)',
      details: { type: 'fileList', files: ['package.json', 'src/'] },
    });
    expect(describeCall('glob', { pattern: 'src/**' }, { output: 'src/a.ts\nsrc/b.ts' }).summary).toBe(
      'Found 2 files',
    );
    expect(describeCall('grep', { pattern: 'foo', path: 'src' }, { output: 'src/a.ts:3: foo' })).toEqual({
      summary: 'Searched for "foo"',
    });
  });

  it('takes a command exit code from the structured result', () => {
    const description = describeCall(
      'run_command',
      { command: 'npm test' },
      { isError: true, output: 'failed', structured: { stdout: 'ran 3', stderr: 'failed', exitCode: 3 } },
    );
    expect(description).toEqual({
      summary: 'Command `npm test` failed: failed',
      details: { type: 'commandOutput', stdout: 'ran 3', stderr: 'failed', exitCode: 3 },
    });
  });

  it('shares one processor with Gemini CLI for the tools both have', () => {
    const gemini = new ToolProcessorRegistry(geminiCliToolProcessors);
    for (const name of ['read_file', 'write_file', 'glob']) expect(registry.get(name)).toBe(gemini.get(name));
    expect(describeCall('read_file', { file_path: '/repo/a.ts' }).summary).toBe('Read a.ts');
  });
});
