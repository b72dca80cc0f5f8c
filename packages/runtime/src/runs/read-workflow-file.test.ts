import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { readWorkflowFile, WORKFLOW_FORMAT_URL } from './read-workflow-file.js';

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

  const failure = async (name: string, text: string) => {
    const path = file(name, text);
    const error = await readWorkflowFile(path, { name: 'x' }).catch((thrown: unknown) => thrown);
    if (!CairnError.is(error, 'INVALID_ARGUMENT')) throw new Error(`expected INVALID_ARGUMENT, got ${error}`);
    return { path, message: error.message, details: error.details ?? {} };
  };
  // JSON is YAML too: the definition written out as a file would be.
  const json = (value: unknown) => JSON.stringify(value);

  it('says what is wrong in a file it read, and where, and points at the documented format', async () => {
    const cases: [string, string, string][] = [
      ['syntax.yaml', 'id: [unclosed', ' is not valid YAML or JSON: '],
      [
        'duplicate-key.yaml',
        'id: a\nid: b\n',
        ' is not valid YAML or JSON: Map keys must be unique at line 2, column 1',
      ],
      ['empty.yaml', '', ' is empty'],
      ['list.yaml', '- id: review\n', ' holds a list, not a workflow'],
      ['scalar.yaml', 'review', ' holds a string, not a workflow'],
      ['entry.yaml', json({ ...definition, entry: 'start' }), ': entry: no node has the id "start"'],
      [
        'edge.yaml',
        json({ ...definition, edges: [{ from: 'read', to: 'nowhere' }] }),
        ': edges[0].to: no node has the id "nowhere"',
      ],
      [
        'typo.yaml',
        json({
          ...definition,
          nodes: [{ id: 'read', name: 'Read', instructions: 'x' }, definition.nodes[1]],
        }),
        ': nodes[0].instruction: missing; nodes[0]: unknown field "instructions"',
      ],
      ['no-edges.yaml', json({ ...definition, edges: undefined }), ': edges: missing'],
      ['no-nodes.yaml', json({ ...definition, nodes: [] }), ': nodes: needs at least one node'],
      ['top-level.yaml', json({ ...definition, node: [] }), ': unknown field "node"'],
      [
        'package.yaml',
        json({ name: 'team', workflows: [{ ...definition, entry: 'start' }] }),
        ': workflows[0].entry: no node has the id "start"',
      ],
    ];
    for (const [name, text, problem] of cases) {
      const { path, message, details } = await failure(name, text);
      expect(message, name).toContain(`${path}${problem}`);
      expect(details.path).toBe(path);
      expect(details.docs).toBe(WORKFLOW_FORMAT_URL);
      expect(details.fix, name).toMatch(/see the workflow format at https:\/\/\S+#workflow-files$/);
    }
    expect(WORKFLOW_FORMAT_URL).toMatch(/\/packages\/runtime#workflow-files$/);
  });

  it('names the first three bad fields, counts the rest, and keeps them all in details.issues', async () => {
    const nodes = definition.nodes.map((node) => ({ ...node, name: ' ', instruction: '' }));
    const { message, details } = await failure('blank.yaml', json({ ...definition, nodes }));
    expect(message).toMatch(
      /: nodes\[0\]\.name: must not be empty or blank; nodes\[0\]\.instruction: .*; nodes\[1\]\.name: .* \(and 1 more\)$/,
    );
    expect(details.issues).toHaveLength(4);
  });

  it('says why a file cannot be read, with the reason in details.errno', async () => {
    const path = join(dir, 'nothing-here.yaml');
    const error = await readWorkflowFile(path, { name: 'x' }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `cannot read ${path} (ENOENT)`,
      details: { path, errno: 'ENOENT', fix: 'check the path' },
    });
  });
});
