import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWorkflowFile } from '@cairn/runtime';
import { describe, expect, it } from 'vitest';
import { SAMPLE_WORKFLOW_YAML } from './sample-workflow.js';

/** The first ```yaml block after `heading` in a README of the repository. */
async function readmeSample(readme: string, heading: string): Promise<string | undefined> {
  const text = await readFile(new URL(`../../${readme}`, import.meta.url), 'utf8');
  const section = text.slice(text.indexOf(`\n${heading}\n`));
  return /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
}

describe('the sample workflow', () => {
  it('is a workflow the runtime reads: a choice with a default, a loop, a last step', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'cairn-sample-workflow-')), 'workflow.yaml');
    await writeFile(path, SAMPLE_WORKFLOW_YAML);
    const [workflow] = (await readWorkflowFile(path, { name: 'file' })).workflows;
    expect(workflow?.nodes.map((node) => node.id)).toEqual(['read', 'review', 'fix', 'report']);
    expect(workflow?.edges).toContainEqual({
      from: 'review',
      to: 'report',
      label: 'approved',
      default: true,
    });
    expect(workflow?.edges).toContainEqual({ from: 'fix', to: 'review' });
  });

  it('is the sample of the CLI README and of the runtime README, word for word', async () => {
    expect(await readmeSample('README.md', '## Workflows')).toBe(SAMPLE_WORKFLOW_YAML);
    expect(await readmeSample('../../packages/runtime/README.md', '## Workflow files')).toBe(
      SAMPLE_WORKFLOW_YAML,
    );
  });
});
