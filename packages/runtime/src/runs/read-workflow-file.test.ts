import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { readWorkflowFile } from './read-workflow-file.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-workflow-file-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const definition = {
  id: 'review',
  name: 'Review',
  entry: 'read',
  nodes: [
    { id: 'read', name: 'Read', instruction: 'Read the change.' },
    { id: 'done', name: 'Done', instruction: 'Say it is done.' },
  ],
  edges: [{ from: 'read', to: 'done' }],
};

describe('readWorkflowFile', () => {
  it('wraps one definition (YAML or JSON) in a package of the given name', async () => {
    const yaml = file(
      'one.yaml',
      [
        'id: review',
        'name: Review',
        'entry: read',
        'nodes:',
        '  - { id: read, name: Read, instruction: Read the change. }',
        '  - { id: done, name: Done, instruction: Say it is done. }',
        'edges:',
        '  - { from: read, to: done }',
      ].join('\n'),
    );
    const pkg = await readWorkflowFile(yaml, { name: 'one' });
    expect(pkg.name).toBe('one');
    expect(pkg.workflows.map((workflow) => workflow.id)).toEqual(['review']);
    const json = await readWorkflowFile(file('one.json', JSON.stringify(definition)), { name: 'json' });
    expect(json.workflows[0]?.nodes).toHaveLength(2);
  });

  it('reads a package as it is', async () => {
    const path = file('pkg.json', JSON.stringify({ name: 'team', workflows: [definition] }));
    expect((await readWorkflowFile(path, { name: 'ignored' })).name).toBe('team');
  });

  it('fails with INVALID_ARGUMENT naming the file and a fix', async () => {
    const failures = [
      join(dir, 'missing.yaml'),
      file('broken.yaml', 'id: [unclosed'),
      file('invalid.json', JSON.stringify({ ...definition, entry: 'nowhere' })),
    ];
    for (const path of failures) {
      const error = await readWorkflowFile(path, { name: 'x' }).catch((thrown: unknown) => thrown);
      expect(CairnError.is(error, 'INVALID_ARGUMENT'), String(error)).toBe(true);
      expect((error as CairnError).message).toContain(path);
      expect((error as CairnError).details?.fix).toEqual(expect.any(String));
    }
  });
});
